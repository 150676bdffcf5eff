/**
 * The default of an exhaustive switch: `default: return missingCaseError(x)` makes a case left out a compile
 * error (`x` is not `never` then), and a value from outside the types (untrusted data) a thrown error at run time.
 */
export function missingCaseError(value: never): never {
  return missingCase(value);
}

function missingCase(value: unknown): never {
  throw new TypeError(`Unhandled case: ${String(JSON.stringify(value) ?? value).slice(0, 200)}`);
}
