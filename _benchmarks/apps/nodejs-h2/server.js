// nodejs-h2: the h2 comparison on Node.js's own HTTP/2 server
// (node:http2 createSecureServer), answering GET /api/values/<id> with
// "value" as text/plain. Express has no HTTP/2 server (it runs on
// node:http), so this app uses the compatibility API of node:http2, which
// is what an Express user switching to HTTP/2 would write. allowHTTP1
// keeps HTTP/1.1 over TLS on the same port, negotiated by ALPN.
//
// The certificate and key come from TLS_CERT_FILE and TLS_KEY_FILE.
// WORKERS=N (default 1) runs N worker processes with node:cluster sharing
// the port, like the Express apps.
'use strict';

const cluster = require('node:cluster');
const fs = require('node:fs');
const http2 = require('node:http2');

const port = Number(process.env.PORT || 5000);
const workers = Math.max(1, Number(process.env.WORKERS || 1));
const route = /^\/api\/values\/[^/]+$/;

function createServer() {
  const server = http2.createSecureServer({
    key: fs.readFileSync(process.env.TLS_KEY_FILE),
    cert: fs.readFileSync(process.env.TLS_CERT_FILE),
    allowHTTP1: true,
  });
  // A session the client stopped using is closed after 5 s, as Kestrel
  // and net/http close idle connections: h2load, after a timed run, waits
  // for the server to close the connections it stopped (without this it can
  // wait forever on node:http2).
  server.setTimeout(5000);
  server.on('request', (req, res) => {
    if (req.method === 'GET' && route.test(req.url)) {
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'content-length': '5' });
      res.end('value');
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
    res.end('not found');
  });
  return server;
}

function ready(actualPort) {
  process.stdout.write(`Now listening on: https://127.0.0.1:${actualPort}\n` +
    'Application started. Press CTRL+C to shut down.\n');
}

if (workers > 1 && cluster.isPrimary) {
  let listening = 0;
  cluster.on('listening', (worker, address) => {
    listening++;
    if (listening === workers) ready(address.port);
  });
  // A worker that dies invalidates the measurement: fail loudly instead of
  // silently respawning it.
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
  const server = createServer();
  server.listen(port, '127.0.0.1', () => {
    if (!cluster.isWorker) ready(server.address().port);
  });
}
