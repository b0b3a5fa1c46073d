/**
 * What the package knows about the n8n nodes whose items it reads, by node type: where a node
 * nests the person's values, how it writes an empty field, which zone its times without an
 * offset are in. Data only: the code that reads records and times looks a node up here, so no
 * operation branches on a node's name.
 */
export interface SourceNodeRules {
	/** The node's name in n8n's nodes panel, as outputs and hints say it. */
	displayName: string;
	/** The key its items hold the person's values under; a whole item mapped is read from there. */
	recordUnder?: string;
	/** A key whose object holds more of the record's own fields (Pipedrive's custom_fields). */
	moreFieldsUnder?: string;
	/** The node writes an empty field as false. */
	falseMeansEmpty?: boolean;
	/** The zone of its date-and-time text without an offset. */
	timesWithoutOffsetIn?: string;
	/** It gives dates as spreadsheet serial numbers (days since 1899-12-30). */
	givesSerialDates?: boolean;
	/** It puts several items in one, each field's values in a list (n8n's Aggregate node). */
	putsItemsInLists?: boolean;
	/**
	 * Its driver gives a DATE column as an instant at midnight (a JS Date, or its ISO text) on a
	 * clock: UTC, or the n8n server's own; below `beforeVersion` only, where later versions of
	 * the node give 'YYYY-MM-DD'.
	 */
	dateColumnsAtMidnight?: { clock: 'UTC' | 'server'; beforeVersion?: number };
}

// node-postgres builds a DATE as a JS Date at midnight on the server's clock (as mysql2 does
// without dateStrings); TimescaleDB, QuestDB and CrateDB give 'YYYY-MM-DD' from their 1.1.
const PG_DATES_BEFORE_1_1 = { clock: 'server', beforeVersion: 1.1 } as const;

const SOURCE_NODES: Readonly<Record<string, SourceNodeRules>> = {
	// Odoo's JSON-RPC writes an unset field as false and datetimes in UTC, as 'YYYY-MM-DD HH:MM:SS'.
	'n8n-nodes-base.odoo': {
		displayName: 'Odoo',
		falseMeansEmpty: true,
		timesWithoutOffsetIn: 'UTC',
	},
	'n8n-nodes-base.airtable': { displayName: 'Airtable', recordUnder: 'fields' },
	'n8n-nodes-base.airtableTrigger': { displayName: 'Airtable Trigger', recordUnder: 'fields' },
	'n8n-nodes-base.hubspot': { displayName: 'HubSpot', recordUnder: 'properties' },
	// With Simplify off; simplified pages have no "properties" and are read as they are.
	'n8n-nodes-base.notion': { displayName: 'Notion', recordUnder: 'properties' },
	'n8n-nodes-base.pipedrive': { displayName: 'Pipedrive', moreFieldsUnder: 'custom_fields' },
	'n8n-nodes-base.activeCampaign': { displayName: 'ActiveCampaign', recordUnder: 'contact' },
	// Excel 365 gives a sheet's cells unformatted, dates as serials; it has no option for text.
	'n8n-nodes-base.microsoftExcel': { displayName: 'Microsoft Excel 365', givesSerialDates: true },
	// Google Sheets gives serials only when Options → Output Formatting → Date Formatting says so.
	'n8n-nodes-base.googleSheets': { displayName: 'Google Sheets', givesSerialDates: true },
	// Aggregate's output is several items in one: `data: [item, item]`, or each field's values listed.
	'n8n-nodes-base.aggregate': { displayName: 'Aggregate', putsItemsInLists: true },
	'n8n-nodes-base.facebookLeadAdsTrigger': {
		displayName: 'Facebook Lead Ads Trigger',
		recordUnder: 'data',
	},
	'n8n-nodes-base.postgres': {
		displayName: 'Postgres',
		dateColumnsAtMidnight: { clock: 'server', beforeVersion: 2.7 },
	},
	'n8n-nodes-base.mySql': {
		displayName: 'MySQL',
		dateColumnsAtMidnight: { clock: 'server', beforeVersion: 2.1 },
	},
	// node-oracledb reads a DATE on the server's clock; the node writes it as ISO text.
	'n8n-nodes-base.oracleDatabase': {
		displayName: 'Oracle Database',
		dateColumnsAtMidnight: { clock: 'server' },
	},
	// SQL Server's driver (tedious) reads a DATE as midnight UTC; 1.2 writes it as ISO text.
	'n8n-nodes-base.microsoftSql': {
		displayName: 'Microsoft SQL',
		dateColumnsAtMidnight: { clock: 'UTC' },
	},
	// snowflake-sdk's Date for a DATE is midnight UTC; from 1.1 the node gives its text.
	'n8n-nodes-base.snowflake': {
		displayName: 'Snowflake',
		dateColumnsAtMidnight: { clock: 'UTC', beforeVersion: 1.1 },
	},
	'n8n-nodes-base.timescaleDb': {
		displayName: 'TimescaleDB',
		dateColumnsAtMidnight: PG_DATES_BEFORE_1_1,
	},
	'n8n-nodes-base.questDb': { displayName: 'QuestDB', dateColumnsAtMidnight: PG_DATES_BEFORE_1_1 },
	'n8n-nodes-base.crateDb': { displayName: 'CrateDB', dateColumnsAtMidnight: PG_DATES_BEFORE_1_1 },
};

/**
 * Nodes that pass their input items on unchanged: the shape of an item behind them is the shape
 * the node before them gave.
 */
const PASS_THROUGH_NODES = new Set([
	'n8n-nodes-base.if',
	'n8n-nodes-base.filter',
	'n8n-nodes-base.switch',
	'n8n-nodes-base.noOp',
	'n8n-nodes-base.limit',
	'n8n-nodes-base.splitInBatches',
	'n8n-nodes-base.wait',
	'n8n-nodes-base.removeDuplicates',
	'n8n-nodes-base.sort',
]);

export function sourceNodeRules(nodeType: string): SourceNodeRules | undefined {
	return SOURCE_NODES[nodeType];
}

export function passesItemsThrough(nodeType: string): boolean {
	return PASS_THROUGH_NODES.has(nodeType);
}
