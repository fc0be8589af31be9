// tfb-nodehttp: TechEmpower's six test types on node:http alone, as the
// Node.js TechEmpower entry writes them: a switch on the path, JSON.stringify,
// the fortunes page built as a string with the messages HTML-escaped (Node
// has no template engine), postgres.js for PostgreSQL (db.js). The Date
// header is node:http's own.
//
// WORKERS=N (default 1) runs N processes with node:cluster, as the
// suite's Express apps.
'use strict';

const cluster = require('node:cluster');
const http = require('node:http');
const db = require('./db');

const port = Number(process.env.PORT || 5000);
const workers = Math.max(1, Number(process.env.WORKERS || 1));

const escapes = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHTML = (s) => s.replace(/[&<>"']/g, (c) => escapes[c]);

function send(res, contentType, body) {
  res.writeHead(200, {
    Server: 'Node',
    'Content-Type': contentType,
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(body);
}

const json = (res, value) => send(res, 'application/json', JSON.stringify(value));

function fortunesPage(fortunes) {
  let rows = '';
  for (const f of fortunes) rows += `<tr><td>${f.id}</td><td>${escapeHTML(f.message)}</td></tr>`;
  return '<!DOCTYPE html><html><head><title>Fortunes</title></head><body><table>' +
    `<tr><th>id</th><th>message</th></tr>${rows}</table></body></html>`;
}

async function handle(req, res) {
  const url = new URL(req.url, 'http://localhost');
  switch (req.method === 'GET' && url.pathname) {
    case '/plaintext':
      return send(res, 'text/plain', 'Hello, World!');
    case '/json':
      return json(res, { message: 'Hello, World!' });
    case '/db':
      return json(res, await db.oneWorld());
    case '/queries':
      return json(res, await db.worlds(db.parseQueries(url.searchParams.get('queries'))));
    case '/updates':
      return json(res, await db.updateWorlds(db.parseQueries(url.searchParams.get('queries'))));
    case '/fortunes':
      return send(res, 'text/html; charset=utf-8', fortunesPage(await db.fortunes()));
    default:
      res.writeHead(404, { Server: 'Node', 'Content-Type': 'text/plain' });
      return res.end('Not Found');
  }
}

function createServer() {
  return http.createServer((req, res) => {
    handle(req, res).catch((err) => {
      res.writeHead(500, { Server: 'Node', 'Content-Type': 'text/plain' });
      res.end(String(err));
    });
  });
}

function ready(actualPort) {
  process.stdout.write(`Now listening on: http://127.0.0.1:${actualPort}\n` +
    'Application started. Press CTRL+C to shut down.\n');
}

if (workers > 1 && cluster.isPrimary) {
  let listening = 0;
  cluster.on('listening', (worker, address) => {
    listening++;
    if (listening === workers) ready(address.port);
  });
  cluster.on('exit', (worker, code, signal) => {
    console.error(`worker ${worker.process.pid} exited (${signal || code})`);
    process.exit(1);
  });
  for (const sig of ['SIGINT', 'SIGTERM']) {
    process.on(sig, () => {
      cluster.removeAllListeners('exit');
      for (const id in cluster.workers) cluster.workers[id].process.kill(sig);
      process.exit(0);
    });
  }
  for (let i = 0; i < workers; i++) cluster.fork();
} else {
  const server = createServer().listen(port, '127.0.0.1', () => {
    if (!cluster.isWorker) ready(server.address().port);
  });
}
