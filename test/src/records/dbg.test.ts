import { checkAttributes } from '../../../src/records/attributes';
import { readNodeOutput } from '../../fixtures/node-outputs/nodeOutputs.mjs';
test('x', () => {
  const r = checkAttributes({ object: readNodeOutput('erpnext-contact-get.json'), replace: false }, { handling: 'leaveOut', keysToSend: ['full_name', 'email_id', 'company_name', 'phone_nos'] });
  console.log(JSON.stringify(r.leftOut.filter(l => l.key.startsWith('phone'))));
});
