// The nodes in n8n's real engine against the sandbox, one topic a `.cases.ts` file beside this one.
// They run as one jest file because each jest file loads n8n's engine afresh (about a second);
// a topic that needs a module registry of its own, or is big enough to keep a core busy alone,
// is a `.test.ts` of its own (CallKaroTrigger, nodeOutputs, phoneMasking, shared/contract...).
// One topic:  npx jest test/nodes/nodes.test.ts -t 'CallKaro Outbound Call'
// (-t takes the title of the topic's describe, or of any test in it).
import './CallKaroAssignWorkflow.cases';
import './CallKaroOutboundCall.cases';
import './CallKaroDeleteScheduledCall.cases';
import './CallKaroCreateCampaign.cases';
import './CallKaroApi.credentials.cases';
import './CallKaroWebhookSecretApi.credentials.cases';
import './callingHours.cases';
import './duplicates.cases';
import './metadataTypes.cases';
import './phoneNumbers.cases';
import './runOptions.cases';
import './errorItems.cases';
import './payloads.cases';
