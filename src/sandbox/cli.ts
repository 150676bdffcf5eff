/**
 * `npm run sandbox -- --port 4010 [--host H] [--key K] [--seed N] [--size small|default] [--any-ids PERCENT] [--log]`
 * (`--any-ids 10`: batch lookups answer any id, 10% of them not found, for hydrating id files)
 * Runs the sandbox standalone, for building against the API offline.
 */
import { parseArgs } from 'node:util';
import { startSandbox, DEFAULT_SEED } from './server';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '4010' },
    host: { type: 'string', default: '127.0.0.1' },
    key: { type: 'string' },
    seed: { type: 'string', default: String(DEFAULT_SEED) },
    size: { type: 'string', default: 'default' },
    log: { type: 'boolean', default: false },
    'any-ids': { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  },
  strict: true,
});

if (values.help) {
  console.log(
    'usage: npm run sandbox -- [--port 4010] [--host 127.0.0.1] [--key K] [--seed N] [--size small|default] [--any-ids PERCENT] [--log]',
  );
  process.exit(0);
}

const port = Number(values.port);
const seed = Number(values.seed);
if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port: not a port: ${values.port}`);
if (!Number.isInteger(seed)) throw new Error(`--seed: not an integer: ${values.seed}`);
if (values.size !== 'small' && values.size !== 'default') throw new Error('--size: small or default');
const notFoundPercent = values['any-ids'] === undefined ? null : Number(values['any-ids']);
if (notFoundPercent !== null && !(notFoundPercent >= 0 && notFoundPercent <= 100))
  throw new Error(`--any-ids: a percentage of ids not found, 0 to 100: ${values['any-ids']}`);

const started = performance.now();
const sandbox = await startSandbox({
  port,
  host: values.host,
  seed,
  size: values.size,
  requiredKey: values.key,
  logger: values.log,
  anyIds: notFoundPercent === null ? undefined : { notFoundPercent },
});
console.log(
  `Skein API sandbox on ${sandbox.baseUrl} (seed ${seed}, ${values.size} world, ready in ${Math.round(performance.now() - started)} ms)`,
);
console.log(
  values.key === undefined
    ? 'Demo mode: any x-api-key (or none) is accepted.'
    : 'An x-api-key is required (the one given with --key).',
);
console.log(`Try: curl '${sandbox.baseUrl}/social/user/tweet_timeline?userId=${sandbox.examples.profile.id}'`);
console.log(`Showcase ids: ${sandbox.baseUrl}/__sandbox/examples`);
console.log(JSON.stringify(sandbox.examples, null, 2));

const stop = (): void => {
  void sandbox.close().then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
