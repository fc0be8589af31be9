// The app's database access with postgres.js, as TechEmpower's Express and
// Node.js entries on PostgreSQL use it: one pool per process of
// DB_POOL / WORKERS connections (at least one) to DATABASE_URL, statements
// prepared by the driver, the reads of a request issued together
// (Promise.all, pipelined on the pool), and its updates written by one
// UPDATE over unnest'ed arrays, ids sorted so that concurrent requests lock
// rows in one order. A World drawn twice in one request is written once
// and answered with the value written.
'use strict';

const postgres = require('postgres');

const workers = Math.max(1, Number(process.env.WORKERS || 1));
const poolSize = Math.max(1, Math.ceil(Number(process.env.DB_POOL || 32) / workers));

const sql = postgres(process.env.DATABASE_URL, { max: poolSize, onnotice: () => {} });

const randomId = () => Math.floor(Math.random() * 10000) + 1;

// parseQueries clamps the queries parameter to 1..500; a missing or
// malformed one is 1.
function parseQueries(value) {
  const n = Number.parseInt(value, 10);
  if (!Number.isInteger(n) || n < 1) return 1;
  return Math.min(n, 500);
}

async function oneWorld() {
  const [row] = await sql`SELECT id, randomnumber FROM world WHERE id = ${randomId()}`;
  return { id: row.id, randomNumber: row.randomnumber };
}

function worlds(n) {
  const reads = new Array(n);
  for (let i = 0; i < n; i++) reads[i] = oneWorld();
  return Promise.all(reads);
}

async function updateWorlds(n) {
  const ws = await worlds(n);
  ws.sort((a, b) => a.id - b.id);
  const ids = [];
  const numbers = [];
  for (let i = 0; i < ws.length; i++) {
    if (i > 0 && ws[i].id === ws[i - 1].id) {
      ws[i].randomNumber = ws[i - 1].randomNumber;
      continue;
    }
    ws[i].randomNumber = randomId();
    ids.push(ws[i].id);
    numbers.push(ws[i].randomNumber);
  }
  await sql`UPDATE world SET randomnumber = u.n
    FROM unnest(${sql.array(ids)}::int[], ${sql.array(numbers)}::int[]) AS u(id, n)
    WHERE world.id = u.id`;
  return ws;
}

// fortunes returns the Fortune rows and the one added at request time,
// sorted by message (code unit order, as the other stacks compare).
async function fortunes() {
  const rows = await sql`SELECT id, message FROM fortune`;
  const all = rows.map((r) => ({ id: r.id, message: r.message }));
  all.push({ id: 0, message: 'Additional fortune added at request time.' });
  all.sort((a, b) => (a.message < b.message ? -1 : a.message > b.message ? 1 : 0));
  return all;
}

module.exports = { parseQueries, oneWorld, worlds, updateWorlds, fortunes };
