import { compile } from './compile';
const src = require('fs').readFileSync(process.argv[2], 'utf8');
const r = compile({ 'main.ts': src });
console.log(r.js['main.ts']);
for (const d of r.diagnostics) console.log('DIAG', d.code, d.messageText);
