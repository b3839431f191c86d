// Proves distinct honours its collation as mongod does: the query matches under it, values equal
// under it are one value, and the values come in its order; without one, the simple binary
// comparison still tells "a" from "A". A view refuses any collation but its own (simple).
import { describe, expect, it } from 'vitest';
import { useEmulator } from './emulatorFixture.ts';

const fixture = useEmulator();
const db = () => fixture.client.db('distinctCollation');
const caseInsensitive = { locale: 'en', strength: 2 };

describe('distinct with a collation', () => {
  it('folds values equal under the collation and matches the query under it', async () => {
    await db()
      .collection('c')
      .insertMany([
        { s: 'a', t: 'X' },
        { s: 'A', t: 'x' },
        { s: 'b', t: 'x' },
        { s: 'B', t: 'y' },
        { s: 'é', t: 'x' },
      ]);
    expect(await db().collection('c').distinct('s')).toEqual(['A', 'B', 'a', 'b', 'é']);
    const folded = await db().collection('c').distinct('s', {}, { collation: caseInsensitive });
    expect(folded).toHaveLength(3);
    expect(folded.map((v: string) => v.toLowerCase())).toEqual(['a', 'b', 'é']);
    // The query { t: 'x' } under strength 2 also matches t: 'X'.
    expect(
      (await db().collection('c').distinct('s', { t: 'x' }, { collation: caseInsensitive })).map((v: string) =>
        v.toLowerCase(),
      ),
    ).toEqual(['a', 'b', 'é']);
    expect(await db().collection('c').distinct('s', { t: 'x' })).toEqual(['A', 'b', 'é']);
  });

  it('sorts in the collation order: numericOrdering puts "10" after "9"', async () => {
    await db()
      .collection('n')
      .insertMany([{ v: '10' }, { v: '9' }, { v: '100' }]);
    expect(await db().collection('n').distinct('v')).toEqual(['10', '100', '9']);
    expect(
      await db()
        .collection('n')
        .distinct('v', {}, { collation: { locale: 'en', numericOrdering: true } }),
    ).toEqual(['9', '10', '100']);
  });

  it("is refused on a view unless it is the view's own (simple), as for every read of a view", async () => {
    await db().createCollection('cv', { viewOn: 'c', pipeline: [{ $match: { t: { $exists: true } } }] });
    const view = db().collection('cv');
    const refused = {
      code: 167,
      codeName: 'OptionNotSupportedOnView',
      message: "Cannot override a view's default collation",
    };
    await expect(view.distinct('s', {}, { collation: caseInsensitive })).rejects.toMatchObject(refused);
    await expect(view.find({}, { collation: caseInsensitive }).toArray()).rejects.toMatchObject(refused);
    await expect(view.countDocuments({}, { collation: caseInsensitive })).rejects.toMatchObject(refused);
    await expect(view.aggregate([], { collation: caseInsensitive }).toArray()).rejects.toMatchObject(refused);
    expect(await view.distinct('s', {}, { collation: { locale: 'simple' } })).toEqual(['A', 'B', 'a', 'b', 'é']);
  });
});
