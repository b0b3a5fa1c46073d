require('esbuild').buildSync({entryPoints:['src/phone/phoneNumber.ts'],bundle:true,platform:'node',outfile:'/tmp/pn.js',format:'cjs',logLevel:'error',external:['n8n-workflow','zod/v4','luxon']});
const {normalizePhoneNumber}=require('/tmp/pn.js');
for (const [v,c] of [['+22985751234'],['+22981123456'],['+2631312345'],['+40600123456'],['+40621234567'],['+26732112345'],['+573241234567'],['+358494612345'],['1800 12 3456','IN'],['1800-123-4567','IN'],['000 800 100 1234','IN'],['1 310-2806','TT'],['+91 98200 11112; +91 98200 11113'],['+91 98200 11112, +91 98200 11113']]) {
  try { console.log(v,c,normalizePhoneNumber(v,{defaultCountryCode:c}).e164);} catch(e){console.log(v,c,'ERR',e.message);}
}
