import { CallKaroInputError } from '../../src/input/inputError';

/** The error a call throws, or undefined. */
export function thrownBy(run: () => unknown): unknown {
	try {
		run();
		return undefined;
	} catch (error) {
		return error;
	}
}

/** The CallKaroInputError a call throws; fails the test when it throws nothing or something else. */
export function inputErrorOf(run: () => unknown): CallKaroInputError {
	const error = thrownBy(run);
	expect(error).toBeInstanceOf(CallKaroInputError);
	return error as CallKaroInputError;
}
