/**
 * A form's state as one object: `change({ field: value })` sets those fields and keeps the others. The form's
 * own module (`features/<feature>/form.ts`) says what the fields are, what is wrong with them and what they
 * send; the component only holds them.
 */
import { useReducer } from 'react';

function merge<T>(state: T, change: Partial<T>): T {
  return { ...state, ...change };
}

export function useForm<T extends object>(initial: () => T): [T, (change: Partial<T>) => void] {
  return useReducer(merge<T>, undefined, initial);
}
