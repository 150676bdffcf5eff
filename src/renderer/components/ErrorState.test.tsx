import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { DEFAULT_ACTIONS, ERROR_CODES, SkeinError } from '../../shared/errors';
import { ErrorState, fieldWords } from './ErrorState';

const render = (error: unknown, retry = true) =>
  renderToStaticMarkup(<ErrorState error={error} onRetry={retry ? () => {} : undefined} />);

describe('ErrorState', () => {
  it('renders every error code with its message and what to do', () => {
    for (const code of ERROR_CODES) {
      const html = render(new SkeinError(code, `message for ${code}`));
      expect(html, code).toContain(`data-error-code="${code}"`);
      expect(html, code).toContain(`message for ${code}`);
      expect(html, code).toContain(DEFAULT_ACTIONS[code].replace(/'/g, '&#x27;'));
    }
  });
  it('offers Retry only where retrying can help, and Settings for key problems', () => {
    expect(render(new SkeinError('upstream', 'x'))).toContain('>Retry<');
    expect(render(new SkeinError('not-available', 'x'))).not.toContain('>Retry<');
    expect(render(new SkeinError('not-found', 'x'))).not.toContain('>Retry<');
    expect(render(new SkeinError('unauthorized', 'x'))).toContain('>Open Settings<');
    expect(render(new SkeinError('payment-required', 'x'))).toContain('>Open Settings<');
    expect(render(new SkeinError('upstream', 'x'), false)).not.toContain('>Retry<');
  });
  it('says until when a rate limit lasts, and prefers the action main sent', () => {
    const at = new Date(2026, 0, 5, 14, 2, 10).getTime();
    const html = render(new SkeinError('rate-limited', 'slow down', { retryAt: at, action: 'Wait a little.' }));
    expect(html).toContain('14:02:10');
    expect(html).toContain('Wait a little.');
  });
  it('a rate-limit pause shows its countdown and offers Try now while it runs', () => {
    const html = render(
      new SkeinError('rate-limited', 'The service asks Skein to wait (Retry-After: “86400”)', {
        retryAt: Date.now() + 10 * 60_000,
      }),
    );
    expect(html).toMatch(/\(\d+ s\)/);
    expect(html).toContain('>Try now<');
    expect(html).toContain('Retry-After: “86400”');
    expect(render(new SkeinError('rate-limited', 'x', { retryAt: Date.now() - 1000 }))).not.toContain('>Try now<');
  });
  it('lists the fields a validation error names', () => {
    const html = render(
      new SkeinError('validation', 'bad', { fields: [{ field: 'tweetId', message: 'must not be empty' }] }),
    );
    expect(html).toContain('Tweet id: must not be empty');
    expect(html).not.toContain('<code>');
  });
  it('names a field in words, never as a key', () => {
    expect(fieldWords('caps.perRun')).toBe('Caps, per run');
    expect(fieldWords('targets[2]')).toBe('Targets, item 3');
    expect(fieldWords('baseUrl')).toBe('Base URL');
    expect(fieldWords('ids_possibly_rounded')).toBe('Ids possibly rounded');
  });
  it('an input Skein refused, with its fields, is the person’s to correct, not a bug', () => {
    const html = render(
      new SkeinError('bad-input', '“@x” is not an account id', {
        fields: [{ field: 'targets', message: 'not an id' }],
      }),
    );
    expect(html).toContain('Check what was entered');
    expect(html).toContain('Targets: not an id');
    expect(html).not.toContain('bug in Skein');
    expect(html).not.toContain('Something went wrong');
  });
  it('a missing base URL is a setting to fix, not a refusal by the API, with a way to Settings', () => {
    const html = render(
      new SkeinError('validation', 'No API base URL is set for live mode, so nothing was sent.', {
        fields: [{ field: 'baseUrl', message: 'none is set' }],
      }),
    );
    expect(html).not.toContain('The API refused the request');
    expect(html).toContain('Skein is not set up for this yet');
    expect(html).toContain('nothing was sent');
    expect(html).toContain('>Open Settings<');
  });
  it('shows a plain Error as a bug in Skein, as text', () => {
    const html = render(new Error('<b>boom</b>'));
    expect(html).toContain('data-error-code="internal"');
    expect(html).toContain('&lt;b&gt;boom&lt;/b&gt;');
  });
});
