// Proves the keyring's answers stay right when it remembers the tokens it matched: a valid key is
// its own principal every time, and an unknown token, a token one character off a remembered one,
// a malformed or a missing header are refused every time, before and after the valid key was seen.
import { describe, expect, it } from 'vitest';
import { Keyring, keyFingerprint } from '../../src/access/apiKeys.ts';

const service = 'service-key-0123456789abcdef';
const admin = 'admin-key-0123456789abcdefgh';

describe('the keyring', () => {
  it('answers the same for every presentation of a key, however often it has matched before', () => {
    const keyring = new Keyring([
      { token: service, role: 'service' },
      { token: admin, role: 'admin' },
    ]);
    const offByOne = `${service.slice(0, -1)}X`;
    for (let round = 0; round < 3; round += 1) {
      expect(keyring.authenticate(`Bearer ${offByOne}`)).toEqual({ ok: false, failure: 'unknown' });
      expect(keyring.authenticate(`Bearer ${service}`)).toEqual({
        ok: true,
        principal: { role: 'service', keyId: keyFingerprint(service) },
      });
      expect(keyring.authenticate(`bearer ${admin} `)).toEqual({
        ok: true,
        principal: { role: 'admin', keyId: keyFingerprint(admin) },
      });
      expect(keyring.authenticate(`Bearer ${service}x`)).toEqual({ ok: false, failure: 'unknown' });
      expect(keyring.authenticate(`Bearer ${service.slice(1)}`)).toEqual({ ok: false, failure: 'unknown' });
      expect(keyring.authenticate(service)).toEqual({ ok: false, failure: 'malformed' });
      expect(keyring.authenticate(`Basic ${service}`)).toEqual({ ok: false, failure: 'malformed' });
      expect(keyring.authenticate(undefined)).toEqual({ ok: false, failure: 'missing' });
    }
  });

  it('keeps what one keyring matched to itself', () => {
    const first = new Keyring([{ token: service, role: 'service' }]);
    const second = new Keyring([{ token: admin, role: 'admin' }]);
    expect(first.authenticate(`Bearer ${service}`).ok).toBe(true);
    expect(second.authenticate(`Bearer ${service}`)).toEqual({ ok: false, failure: 'unknown' });
  });
});
