// tfb-expressjs: TechEmpower's six test types on Express 5, written as
// Express's TechEmpower entry on PostgreSQL writes them: postgres.js
// (db.js), a middleware that sets the Server header, res.json, and the
// fortunes page by res.render through Pug (view cache on in production),
// the engine of that entry's fortunes view.
//
// Release mode by default (NODE_ENV=production unless set), no logger,
// x-powered-by and ETags off as theirs. WORKERS=N (default 1) runs N
// processes with node:cluster, as the suite's other Express apps.
'use strict';

process.env.NODE_ENV = process.env.NODE_ENV || 'production';

const cluster = require('node:cluster');
const path = require('node:path');
const express = require('express');
const db = require('./db');

const port = Number(process.env.PORT || 5000);
const workers = Math.max(1, Number(process.env.WORKERS || 1));

function createApp() {
  const app = express();
  app.set('x-powered-by', false);
  app.set('etag', false);
  app.set('view engine', 'pug');
  app.set('views', path.join(__dirname, 'views'));
  app.use((req, res, next) => {
    res.set('Server', 'Express');
    next();
  });
  app.get('/plaintext', (req, res) => {
    res.type('text/plain').send('Hello, World!');
  });
  app.get('/json', (req, res) => {
    res.json({ message: 'Hello, World!' });
  });
  app.get('/db', async (req, res) => {
    res.json(await db.oneWorld());
  });
  app.get('/queries', async (req, res) => {
    res.json(await db.worlds(db.parseQueries(req.query.queries)));
  });
  app.get('/updates', async (req, res) => {
    res.json(await db.updateWorlds(db.parseQueries(req.query.queries)));
  });
  app.get('/fortunes', async (req, res) => {
    res.render('fortunes', { fortunes: await db.fortunes() });
  });
  return app;
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
  const server = createApp().listen(port, '127.0.0.1', (err) => {
    if (err) throw err;
    if (!cluster.isWorker) ready(server.address().port);
  });
}
