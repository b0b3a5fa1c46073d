// The nodes in n8n's real engine against the sandbox (and their descriptions), one topic a
// `.cases.ts` file beside this one. They run as one jest file because each jest file loads n8n's
// engine afresh (about a second).
// The action-node contract, which keeps a core busy alone, and the guard without a store, which
// needs a module registry of its own, are jest files of their own in shared/ (CONTRIBUTING.md,
// Finding and running tests).
// One topic:  npx jest test/nodes/nodes.test.ts -t 'CallKaro Outbound Call'
// (-t takes the title of the topic's describe, or of any test in it).
import './CallKaroAssignWorkflow.cases';
import './CallKaroOutboundCall.cases';
import './CallKaroDeleteScheduledCall.cases';
import './CallKaroCreateCampaign.cases';
import './CallKaroTrigger.cases';
import './CallKaroApi.credentials.cases';
import './CallKaroWebhookSecretApi.credentials.cases';
import './callingHours.cases';
import './duplicates.cases';
import './metadataTypes.cases';
import './phoneNumbers.cases';
import './runOptions.cases';
import './errorItems.cases';
import './payloads.cases';
import './nodeOutputs.cases';
import './recordsCorpus.cases';
import './phoneMasking.cases';
import './defaults.cases';
import './helpTexts.cases';
import './versions.cases';
import './advice.cases';
import './scheduleAdvice.cases';
