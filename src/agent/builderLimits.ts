import { invalidInput } from '../input/inputError';

/**
 * A limit on an AI agent's tool set to `$fromAI()`: the model would choose the limit meant to hold
 * it, so it is refused. n8n reads `$fromAI`, `$fromAi` and `$fromai` alike.
 */
export function refuseModelDefinedLimit(rawValue: unknown, field: string, fix: string): void {
	if (typeof rawValue !== 'string' || !rawValue.toLowerCase().includes('$fromai')) return;
	throw invalidInput(
		field,
		'is left to the model ($fromAI), though it is a limit on the model',
		`${fix}; the model cannot change a fixed setting`,
	);
}
