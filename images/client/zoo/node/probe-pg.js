// zoo-node-postgres HOST PORT INTERVAL_MS DURATION_S [option=value ...]: one node-postgres (pg)
// connection. Options are pg's client options: query_timeout (ms, the client's own wait for an
// answer), connectionTimeoutMillis, keepAlive, keepAliveInitialDelayMillis.
'use strict';
const { Client } = require('pg');
const driver = `pg ${require('pg/package.json').version}`;

const [host, port, intervalMs, durationS, ...settings] = process.argv.slice(2);
const options = { host, port: Number(port), user: process.env.LAB_DB_USER || 'sbtest', password: 'sbtest',
                  database: 'sbtest' };
for (const setting of settings) {
  const [key, value] = setting.split(/=(.*)/s);
  options[key] = value === 'true' ? true : value === 'false' ? false : Number(value);
}

const { now } = require('./wall-clock');
const emit = (record) => process.stdout.write(JSON.stringify(record) + '\n');
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

async function connect(number) {
  const client = new Client(options);
  client.on('error', () => {});          // a dead connection is noticed by the next query
  try {
    await client.connect();
  } catch (err) {
    client.end().catch(() => {});
    throw err;
  }
  emit({ connected: now(), conn: number, local_port: client.connection.stream.localPort, driver });
  return client;
}

async function main() {
  const deadline = now() + Number(durationS);
  let client = null;
  let number = 0;
  do {
    const t0 = now();
    try {
      if (client === null) client = await connect(++number);
      const result = await client.query("SELECT current_setting('lab.server_name') AS server");
      emit({ t0, t1: now(), ok: true, server: result.rows[0].server, conn: number });
    } catch (err) {
      emit({ t0, t1: now(), ok: false, error: err.code || err.message.split(':')[0].replace(/ /g, '_'),
             detail: String(err.message).slice(0, 200), conn: number });
      if (client !== null) client.connection.stream.destroy();
      client = null;
    }
    await sleep(Number(intervalMs) - (now() - t0) * 1000);
  } while (now() < deadline);
  if (client !== null) client.connection.stream.destroy();
}

main();
