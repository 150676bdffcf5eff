import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { DECEPTIVE_URL_ENTITIES } from '../../shared/api/fixtures';
import { linkHost, textShowsHost } from './ExternalLink';
import { RichText, SHOWN_CHARS, shownPart } from './RichText';

/** attacks by a hostile server: link text that names one site while the link goes to another; http; user:password@ */
describe('links from data', () => {
  const text = 'see https://t.co/a https://t.co/b https://t.co/c https://t.co/d';
  const html = renderToStaticMarkup(
    <RichText
      text={text}
      entities={{
        urls: [
          ...DECEPTIVE_URL_ENTITIES,
          {
            url: 'https://t.co/d',
            display_url: 'example.org/page',
            expanded_url: 'https://www.example.org/page',
            indices: [49, 63],
          },
        ],
      }}
    />,
  );

  it('shows the real domain when the text names another', () => {
    expect(html).toContain('bank.example<span class="link-host"> (evil.example)</span>');
    expect(html).not.toContain('example.org/page<span class="link-host">');
  });

  it('marks an http link as unencrypted (main asks before opening it)', () => {
    expect(html).toContain('plain.example<span class="link-host"> (http, unencrypted)</span>');
  });

  it('never makes a link of user:password@', () => {
    expect(html).not.toContain('href="https://bank.example:pw@evil.example/"');
    expect(html).toMatch(/<span class="entity entity--url" title="Not a link Skein opens[^"]*">bank.example<\/span>/);
  });

  it('compares hosts leniently', () => {
    expect(textShowsHost('www.Example.com/x', 'example.com')).toBe(true);
    expect(textShowsHost('example.com.evil.example', 'evil.example')).toBe(false);
    expect(linkHost('https://a.example:8443/x')).toBe('a.example');
  });
});

describe('a huge text (attack: 1 MB post)', () => {
  it('is shown cut, with a button for the rest; short text is whole', () => {
    const huge = 'a'.repeat(1_000_000 - 20) + ' #tag @who http://x';
    const html = renderToStaticMarkup(
      <RichText
        text={huge}
        entities={{ hashtags: [{ text: 'tag', indices: [5, 9] }] }}
        displayRange={[5, 3_000_000]}
      />,
    );
    expect(html.length).toBeLessThan(SHOWN_CHARS + 500);
    expect(html).toMatch(/Show all 999,999 characters/);
    expect(renderToStaticMarkup(<RichText text="short #tag" />)).not.toContain('Show all');
    expect(shownPart('x'.repeat(SHOWN_CHARS), null).cut).toBe(false);
    expect(shownPart('x'.repeat(SHOWN_CHARS + 1), null).cut).toBe(true);
  });
});
