// How a spec test ends when it does not pass: skipped for a stated reason, or failed with the
// differences found. Both are thrown from deep inside the runner and caught per test.

/** The runner does not support something this test needs, or the test itself says to skip it. */
export class SkipTest extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'SkipTest';
  }
}

/** An assertion of the test failed; the message holds its differences, one per line. */
export class TestFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TestFailure';
  }
}

export function unsupported(feature: string): never {
  throw new SkipTest(`runner does not support ${feature}`);
}

export function fail(message: string): never {
  throw new TestFailure(message);
}
