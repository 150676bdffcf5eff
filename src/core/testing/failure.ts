import { SkeinError } from '../../shared/errors';

/** The SkeinError a call fails with; fails the test when it succeeds or throws anything else. */
export async function failure(p: Promise<unknown>): Promise<SkeinError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof SkeinError) return e;
    throw e;
  }
  throw new Error('expected the call to fail with a SkeinError');
}
