import { createHash } from 'node:crypto';

import type { DeduplicationHelperFunctions, ICheckProcessedOptions } from 'n8n-workflow';

import { lockElements } from '../../src/guard/guardLock';
import type { LockRow } from '../../src/guard/guardLock';

// The one other row a node can reach; only a lock lives there, for a few store calls at a time.
const LOCK_SCOPE = 'workflow';
const LOCK_OPTIONS: ICheckProcessedOptions = { mode: 'latestIncrementalKey' };
const ENTRIES: ICheckProcessedOptions = { mode: 'entries' };

/** How n8n stores an element of a list (DeduplicationHelper.createValueHash): md5, base64. */
export const storedHash = (element: string): string =>
	createHash('md5').update(element).digest('base64');

/** The stored lock elements, in order, as far as a row has needed them: a create sends a prefix. */
const storedElements: string[] = [];
function storedPrefix(size: number): string[] {
	if (storedElements.length < size) {
		storedElements.push(...lockElements(storedElements.length, size).map(storedHash));
	}
	return storedElements.slice(0, size);
}

/** The store calls the lock's row makes. */
export type LockRowHelpers = Pick<
	DeduplicationHelperFunctions,
	'checkProcessedAndRecord' | 'getProcessedDataCount' | 'removeProcessed' | 'clearAllProcessedItems'
>;

/** The workflow lock's row (src/guard/guardLock.ts) over n8n's processed-data store. */
export function lockRowOver(helpers: LockRowHelpers): LockRow {
	return {
		create: async (size) => {
			// one item, a list: with no row n8n stores it as it is; on a list row it compares
			// nothing and writes nothing; on a number row it fails before writing
			const item = storedPrefix(size) as unknown as string;
			const seen = await helpers.checkProcessedAndRecord([item], LOCK_SCOPE, LOCK_OPTIONS);
			return seen.new.length > 0 ? 'created' : 'present';
		},
		count: async () => await helpers.getProcessedDataCount(LOCK_SCOPE, ENTRIES),
		shrink: async (elements) => await helpers.removeProcessed(elements, LOCK_SCOPE, ENTRIES),
		remove: async () => await helpers.clearAllProcessedItems(LOCK_SCOPE, LOCK_OPTIONS),
	};
}
