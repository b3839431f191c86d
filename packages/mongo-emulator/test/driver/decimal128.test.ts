// Proves Decimal128 stays exact through the driver: $inc and $mul, $sum, $add, $divide and $avg, and queries
// and sorts that compare decimals which the same values as doubles would confuse.
import { Decimal128 } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { useEmulator } from './emulatorFixture.ts';

const fixture = useEmulator();
const db = () => fixture.client.db('decimal128');
const D = (text: string) => Decimal128.fromString(text);
type Account = { _id: number; balance?: Decimal128; rate?: Decimal128 };

describe('Decimal128 through the driver', () => {
  it('$inc adds ten cents ten times to exactly one unit, keeping the scale', async () => {
    const accounts = db().collection<Account>('inc');
    await accounts.insertOne({ _id: 1, balance: D('0.00') });
    for (let i = 0; i < 10; i += 1) await accounts.updateOne({ _id: 1 }, { $inc: { balance: D('0.10') } });
    expect((await accounts.findOne({ _id: 1 }))!.balance!.toString()).toBe('1.00');
    // 34 digits: a double would lose the last cent.
    await accounts.updateOne({ _id: 1 }, { $inc: { balance: D('12345678901234567890123456789012.00') } });
    expect((await accounts.findOne({ _id: 1 }))!.balance!.toString()).toBe('12345678901234567890123456789013.00');
    await accounts.updateOne({ _id: 1 }, { $mul: { balance: D('0.5') } });
    expect((await accounts.findOne({ _id: 1 }))!.balance!.toString()).toBe('6172839450617283945061728394506.500');
  });

  it('$sum and $add are exact, and a match tells 0.3 from 0.1 + 0.2 as doubles', async () => {
    const entries = db().collection<Account>('sum');
    await entries.insertMany([1, 2, 3].map((_id) => ({ _id, balance: D(`0.${_id}`) })));
    const [total] = await entries.aggregate([{ $group: { _id: null, total: { $sum: '$balance' } } }]).toArray();
    expect((total!.total as Decimal128).toString()).toBe('0.6');
    const added = await entries
      .aggregate([{ $match: { _id: 1 } }, { $project: { _id: 0, x: { $add: ['$balance', D('0.2')] } } }])
      .toArray();
    expect((added[0]!.x as Decimal128).toString()).toBe('0.3');
    expect(await entries.countDocuments({ balance: D('0.3') })).toBe(1);
    expect(await entries.countDocuments({ balance: 0.3 as unknown as Decimal128 })).toBe(0);
    expect(await entries.countDocuments({ $expr: { $eq: [{ $add: [D('0.1'), D('0.2')] }, D('0.3')] } })).toBe(3);
  });

  it('$divide and $avg stay decimal and exact; a zero divisor is refused as mongod refuses it', async () => {
    const entries = db().collection<Account>('divide');
    await entries.insertMany([
      { _id: 1, balance: D('1.00') },
      { _id: 2, balance: D('2.00') },
      { _id: 3, balance: D('7.00') },
    ]);
    const [group] = await entries.aggregate([{ $group: { _id: null, avg: { $avg: '$balance' } } }]).toArray();
    expect((group!.avg as Decimal128).toString()).toBe('3.333333333333333333333333333333333');
    const split = await entries
      .aggregate([{ $match: { _id: 1 } }, { $project: { _id: 0, q: { $divide: ['$balance', 4] } } }])
      .toArray();
    expect((split[0]!.q as Decimal128).toString()).toBe('0.25');
    await expect(
      entries.aggregate([{ $project: { q: { $divide: ['$balance', 0] } } }]).toArray(),
    ).rejects.toMatchObject({
      code: 2,
      codeName: 'BadValue',
      message: expect.stringContaining("can't $divide by zero"),
    });
  });

  it('sorts and ranges by exact value beyond a double precision', async () => {
    const ranked = db().collection<Account>('sort');
    await ranked.createIndex({ balance: 1 });
    await ranked.insertMany([
      { _id: 1, balance: D('100000000000000000.0000000000000002') },
      { _id: 2, balance: D('100000000000000000.0000000000000001') },
      { _id: 3, balance: D('100000000000000000') },
    ]);
    expect((await ranked.find({}, { sort: { balance: 1 } }).toArray()).map((a) => a._id)).toEqual([3, 2, 1]);
    expect(
      (await ranked.find({ balance: { $gt: D('100000000000000000') } }).toArray()).map((a) => a._id).sort(),
    ).toEqual([1, 2]);
    expect(
      (await ranked.find({ balance: { $gt: D('100000000000000000.0000000000000001') } }).toArray()).map((a) => a._id),
    ).toEqual([1]);
  });
});
