// Following a refusal's advice as a builder would: the error item's `details.advice` names a field
// by its display name and a value to put in it (`set`) or an entry to add to its list (`add`).
// `followAdvice` writes that into the node's parameters, so a test can run the same item again.
import type { IDataObject, INodeParameters, INodeProperties, INodeType } from 'n8n-workflow';

import type { Advice } from '../../src/input/inputError';
import { callKaroNodeTypes } from '../engine/callKaroNodes';
import type { RunResult } from '../engine/harness';

/** Where a display name lives in a node's parameters: a top-level field, or an option of a collection. */
function parameterPath(properties: INodeProperties[], displayName: string): string[] | undefined {
	for (const property of properties) {
		if (property.displayName === displayName) return [property.name];
		if (property.type !== 'collection' || !property.options) continue;
		for (const option of property.options as INodeProperties[]) {
			if (option.displayName === displayName) return [property.name, option.name];
		}
	}
	return undefined;
}

/** The node's parameters with the advice followed; throws when the field it names is not on the node. */
export function followAdvice(
	type: string,
	parameters: INodeParameters,
	advice: Advice,
): INodeParameters {
	const { properties } = (callKaroNodeTypes()[type] as INodeType).description;
	const path = parameterPath(properties, advice.field);
	if (!path) throw new Error(`The advice names "${advice.field}", which is no field of ${type}`);
	const followed = structuredClone(parameters) as IDataObject;
	let holder = followed;
	for (const key of path.slice(0, -1)) {
		holder[key] = { ...((holder[key] as IDataObject | undefined) ?? {}) };
		holder = holder[key] as IDataObject;
	}
	const last = path[path.length - 1];
	if ('set' in advice) {
		holder[last] = advice.set.includes('{{') ? `=${advice.set}` : advice.set;
	} else {
		const before = typeof holder[last] === 'string' ? (holder[last] as string).trim() : '';
		holder[last] = before === '' ? advice.add : `${before}, ${advice.add}`;
	}
	return followed as INodeParameters;
}

/** The advice of a refused item of a run with Continue On Fail (the node's output 0, item `index`). */
export function adviceOf(result: RunResult, nodeName: string, index = 0): Advice | undefined {
	const details = result.json(nodeName)[index]?.details as IDataObject | undefined;
	return details?.advice as Advice | undefined;
}
