import { preconditions, type Preconditions } from '../../../src/work/preconditions.ts';

/**
 * The seed's bug, reintroduced on purpose: writes that name the item but not the state they
 * expect (find → mutate → save). Only the meta-test uses this.
 */
export const droppedPreconditions: Preconditions = {
  ...preconditions,
  claimById: (id) => ({ _id: id }),
  heldBy: (id) => ({ _id: id }),
  requeue: (id) => ({ _id: id }),
};
