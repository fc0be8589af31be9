// Checks Vireo's generated OpenAPI documents with tools no one here wrote.
//
//   node check.mjs validate DOC.json
//     @apidevtools/swagger-parser validates the document against the
//     OpenAPI 3.1 schema and resolves every $ref.
//   node check.mjs conform DOC.json EXCHANGES.json
//     Each recorded exchange (method, path, status, content type, body) is
//     matched to its operation and response in the document; its body is
//     validated with Ajv (JSON Schema 2020-12, formats checked) against the
//     response's schema. Then every documented 2xx and 4xx response must
//     have been produced by at least one exchange.
// Both print a JSON verdict and exit 1 when something fails.
import fs from 'node:fs';
import SwaggerParser from '@apidevtools/swagger-parser';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

const [cmd, docFile, exFile] = process.argv.slice(2);

if (cmd === 'validate') {
  try {
    const api = await SwaggerParser.validate(docFile);
    console.log(JSON.stringify({ tool: '@apidevtools/swagger-parser', valid: true, openapi: api.openapi, paths: Object.keys(api.paths || {}).length }));
  } catch (e) {
    console.log(JSON.stringify({ tool: '@apidevtools/swagger-parser', valid: false, error: e.message }));
    process.exit(1);
  }
} else if (cmd === 'conform') {
  const doc = JSON.parse(fs.readFileSync(docFile, 'utf8'));
  const exchanges = JSON.parse(fs.readFileSync(exFile, 'utf8'));
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ ...doc, $id: 'doc' });
  const pointer = (parts) => 'doc#/' + parts.map((p) => String(p).replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
  const templates = Object.keys(doc.paths || {}).map((t) => ({
    t,
    params: (t.match(/\{/g) || []).length,
    re: new RegExp('^' + t.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+') + '$'),
  })).sort((a, b) => a.params - b.params);
  const seen = new Set();
  const problems = [];
  for (const ex of exchanges) {
    const method = ex.method.toLowerCase();
    const tpl = templates.find((x) => x.re.test(ex.path) && doc.paths[x.t][method]);
    const where = `${ex.method} ${ex.path} -> ${ex.status}`;
    if (!tpl) { problems.push(`${where}: no operation in the document`); continue; }
    const op = doc.paths[tpl.t][method];
    let code = String(ex.status);
    if (!op.responses[code]) code = op.responses[code[0] + 'XX'] ? code[0] + 'XX' : 'default';
    const resp = op.responses[code];
    if (!resp) { problems.push(`${where}: status not documented for ${method.toUpperCase()} ${tpl.t}`); continue; }
    seen.add(`${method} ${tpl.t} ${code}`);
    if (!resp.content || ex.body === '') {
      if (resp.content && ex.status !== 204 && method !== 'head') problems.push(`${where}: empty body, the document says ${Object.keys(resp.content)}`);
      if (!resp.content && ex.body !== '' && code !== 'default') problems.push(`${where}: a body the document does not declare`);
      continue;
    }
    const mt = (ex.contentType || '').split(';')[0].trim();
    if (!resp.content[mt]) { problems.push(`${where}: Content-Type ${mt} not among ${Object.keys(resp.content)}`); continue; }
    const schemaPath = ['paths', tpl.t, method, 'responses', code, 'content', mt, 'schema'];
    let value = ex.body;
    if (mt === 'application/json' || mt.endsWith('+json')) {
      try { value = JSON.parse(ex.body); } catch (e) { problems.push(`${where}: body is not JSON: ${e.message}`); continue; }
    }
    const validate = ajv.getSchema(pointer(schemaPath)) || ajv.compile({ $ref: pointer(schemaPath) });
    if (!validate(value)) problems.push(`${where}: body does not match the schema: ${ajv.errorsText(validate.errors)}`);
  }
  const missing = [];
  let documented = 0;
  for (const [t, item] of Object.entries(doc.paths || {})) {
    for (const [method, op] of Object.entries(item)) {
      for (const code of Object.keys(op.responses || {})) {
        if (!/^[24]/.test(code)) continue;
        documented++;
        if (!seen.has(`${method} ${t} ${code}`)) missing.push(`${method.toUpperCase()} ${t} ${code}`);
      }
    }
  }
  for (const m of missing) problems.push(`documented but never produced: ${m}`);
  console.log(JSON.stringify({ tool: 'ajv ' + (await import('ajv/package.json', { with: { type: 'json' } })).default.version, exchanges: exchanges.length, documented2xx4xx: documented, produced: documented - missing.length, problems }));
  if (problems.length) process.exit(1);
} else {
  console.error('usage: node check.mjs validate DOC.json | conform DOC.json EXCHANGES.json');
  process.exit(2);
}
