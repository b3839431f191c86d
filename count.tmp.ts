import 'reflect-metadata';
import { MongoClient } from 'mongodb';
import { startEmulator } from './packages/mongo-emulator/src/index.ts';
import { loadConfig } from './src/config.ts';
import { startServer } from './src/server.ts';
const emu = await startEmulator({ port: 0 });
const client = new MongoClient(emu.uri, { monitorCommands: true });
await client.connect();
const counts = new Map<string, number>();
let on = false;
client.on('commandStarted', (e) => { if (on) { const k = `${e.commandName} ${e.command[e.commandName] ?? ''}`; counts.set(k, (counts.get(k) ?? 0) + 1); } });
const config = loadConfig({ NODE_ENV: 'production', HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'error', SEED_DEMO: '0', MONGODB_DB: 'cnt', API_KEYS: 'tok-aaaaaaaaaaaaaaaaaaaaaaaa=admin' });
const server = await startServer({ config, db: client.db('cnt') });
const post = async (query: string, variables: object) => (await (await fetch(server.url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer tok-aaaaaaaaaaaaaaaaaaaaaaaa' }, body: JSON.stringify({ query, variables }) })).json());
for (let i = 0; i < 10; i++) {
  await post('mutation ($input: OpenAccountInput!) { openAccount(input: $input) { __typename } }', { input: { accountId: `a${i}`, currency: 'EUR' } });
  console.log(JSON.stringify(await post('mutation ($input: DepositInput!) { deposit(input: $input) { __typename } }', { input: { accountId: `a${i}`, requestId: `d${i}`, amount: 1000000 } })));
}
await new Promise((r) => setTimeout(r, 1000));
on = true;
const N = 1000;
const C = Number(process.env.C ?? 1); let next = 0;
await Promise.all(Array.from({ length: C }, async () => { while (next < N) { const i = next++; await post('mutation ($input: WithdrawInput!) { withdraw(input: $input) { __typename } }', { input: { accountId: `a${i % 10}`, requestId: `w${i}`, amount: 1 } }); } }));
await new Promise((r) => setTimeout(r, 2000));
on = false;
let total = 0;
for (const [k, v] of [...counts].sort((a, b) => b[1] - a[1])) { console.log((v / N).toFixed(2), k); total += v; }
console.log('total per withdrawal', (total / N).toFixed(2));
await server.stop(); await client.close(); await emu.stop();
