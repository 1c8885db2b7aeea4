// zoo-node HOST PORT INTERVAL_MS DURATION_S [option=value ...]: one mysql2 connection. Options are
// mysql2's connection options (connectTimeout, enableKeepAlive, keepAliveInitialDelay) and
// `timeout`, its per-query timeout in ms.
'use strict';
const mysql = require('mysql2');
const driver = `mysql2 ${require('mysql2/package.json').version}`;

const [host, port, intervalMs, durationS, ...settings] = process.argv.slice(2);
const options = { host, port: Number(port), user: process.env.LAB_DB_USER || 'sbtest', password: 'sbtest' };
let queryTimeout;
for (const setting of settings) {
  const [key, value] = setting.split(/=(.*)/s);
  const parsed = value === 'true' ? true : value === 'false' ? false : Number(value);
  if (key === 'timeout') queryTimeout = parsed; else options[key] = parsed;
}

const { now } = require('./wall-clock');
const emit = (record) => process.stdout.write(JSON.stringify(record) + '\n');
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

function connect(number) {
  return new Promise((resolve, reject) => {
    const conn = mysql.createConnection(options);
    conn.on('error', () => {});          // a dead connection is noticed by the next query
    conn.connect((err) => {
      if (err) { conn.destroy(); reject(err); return; }
      emit({ connected: now(), conn: number, local_port: conn.stream.localPort, driver });
      resolve(conn);
    });
  });
}

function query(conn) {
  return new Promise((resolve, reject) => {
    conn.query({ sql: 'SELECT @@hostname AS server', timeout: queryTimeout }, (err, rows) => {
      if (err) reject(err); else resolve(rows[0].server);
    });
  });
}

async function main() {
  const deadline = now() + Number(durationS);
  let conn = null;
  let number = 0;
  do {
    const t0 = now();
    try {
      if (conn === null) conn = await connect(++number);
      emit({ t0, t1: now(), ok: true, server: await query(conn), conn: number });
    } catch (err) {
      emit({ t0, t1: now(), ok: false, error: err.code || err.name, detail: String(err.message).slice(0, 200), conn: number });
      if (conn !== null) conn.destroy();
      conn = null;
    }
    await sleep(Number(intervalMs) - (now() - t0) * 1000);
  } while (now() < deadline);
  if (conn !== null) conn.destroy();
}

main();
