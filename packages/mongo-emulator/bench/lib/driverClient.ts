// A bench client process: findOneAndUpdate through the official driver, as the API calls it.
import { MongoClient } from 'mongodb';
import { runClient, type ClientOrder } from './protocol.ts';

const order = JSON.parse(process.argv[2]!) as ClientOrder;
const client = await new MongoClient(order.uri, {
  maxPoolSize: order.connections,
  minPoolSize: order.connections,
}).connect();
const coll = client.db(order.db).collection<{ _id: number; n: number }>(order.collection);
try {
  await runClient(order, async (_connection, i) => {
    const after = await coll.findOneAndUpdate(
      { _id: i % order.documents },
      { $inc: { n: 1 } },
      { returnDocument: 'after' },
    );
    if (!after) throw new Error(`document ${i % order.documents} not found`);
  });
} finally {
  await client.close();
}
process.disconnect();
