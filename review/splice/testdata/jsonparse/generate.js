// Regenerates the expected messages in cases.json from the running Node.js:
//   node generate.js
// Each case's text (or base64 bytes) is decoded as Splice decodes manifest.json
// (TextDecoder: UTF-8, replacement characters, one leading BOM dropped) and given to
// JSON.parse; its message is what vouch must print. The reference is Node 20 (V8 11.3).
'use strict';
const fs = require('fs');
const path = require('path');
const file = path.join(__dirname, 'cases.json');
const doc = JSON.parse(fs.readFileSync(file, 'utf8'));
doc.node = process.version;
doc.v8 = process.versions.v8;
for (const c of doc.cases) {
  const bytes = c.base64 !== undefined ? Buffer.from(c.base64, 'base64') : Buffer.from(c.text, 'utf8');
  const text = new TextDecoder().decode(bytes);
  try {
    JSON.parse(text);
    throw new Error('case ' + c.name + ' is valid JSON');
  } catch (e) {
    if (!(e instanceof SyntaxError)) throw e;
    c.message = e.message;
  }
}
fs.writeFileSync(file, JSON.stringify(doc, null, 1) + '\n');
