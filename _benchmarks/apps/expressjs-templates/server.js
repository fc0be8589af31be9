// expressjs-templates: the templates comparison on Express 5 with EJS and
// express-ejs-layouts: views/index.ejs rendered inside views/layout.ejs, the
// title passed as data from the handler, the view cache on (compiled
// templates are reused, as in production).
//
// Release mode by default (NODE_ENV=production unless set), no logger.
// WORKERS=N (default 1) runs N worker processes with node:cluster sharing
// the port, as the original benchmark did with throng; with one worker no
// cluster primary is involved at all.
'use strict';

process.env.NODE_ENV = process.env.NODE_ENV || 'production';

const cluster = require('node:cluster');
const express = require('express');
const expressLayouts = require('express-ejs-layouts');
const path = require('node:path');

const port = Number(process.env.PORT || 5000);
const workers = Math.max(1, Number(process.env.WORKERS || 1));

function createApp() {
  const app = express();
  app.set('views', path.join(__dirname, 'views'));
  app.set('view engine', 'ejs');
  app.set('view cache', true);
  app.use(expressLayouts);
  app.get('/', (req, res) => {
    res.render('index', { title: 'Home Page' });
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
  const stop = (sig) => {
    cluster.removeAllListeners('exit');
    for (const id in cluster.workers) cluster.workers[id].process.kill(sig);
    process.exit(0);
  };
  // A worker that dies invalidates the measurement: fail loudly instead of
  // silently respawning it. A worker stopped by SIGINT or SIGTERM is a
  // shutdown, not a death: the runner signals the whole process group, so
  // a worker's exit can reach the primary before its own signal does.
  cluster.on('exit', (worker, code, signal) => {
    if (signal === 'SIGINT' || signal === 'SIGTERM') return stop(signal);
    console.error(`worker ${worker.process.pid} exited (${signal || code})`);
    process.exit(1);
  });
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => stop(sig));
  for (let i = 0; i < workers; i++) cluster.fork();
} else {
  const server = createApp().listen(port, '127.0.0.1', (err) => {
    if (err) throw err;
    if (!cluster.isWorker) ready(server.address().port);
  });
}
