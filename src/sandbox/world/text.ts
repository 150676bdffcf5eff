/**
 * Builds text while recording entity `indices` in Unicode code points (the
 * API counts code points, not UTF-16 units: an emoji before a hashtag shifts
 * it by one, not two).
 */

export type Indices = [number, number];

export function codePoints(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) n--;
  }
  return n;
}

export class TextBuilder {
  private parts: string[] = [];
  private cp = 0;

  get length(): number {
    return this.cp;
  }

  /** append `s`; returns its indices */
  add(s: string): Indices {
    const start = this.cp;
    this.parts.push(s);
    this.cp += codePoints(s);
    return [start, this.cp];
  }

  /** append a separating space unless empty */
  space(): void {
    if (this.cp > 0) this.add(' ');
  }

  toString(): string {
    return this.parts.join('');
  }
}

export const LANGS = ['en', 'es', 'fr', 'de', 'ja', 'pt'] as const;
export type Lang = (typeof LANGS)[number];

/** Short realistic sentences for the non-English share of posts. */
export const PHRASES: Record<Exclude<Lang, 'en'>, readonly string[]> = {
  es: [
    'Qué buen día para salir a correr por el parque',
    'No puedo creer lo que acaba de pasar en el partido',
    'Recomendaciones de libros para este verano, por favor',
    'Hoy aprendí algo nuevo sobre bases de datos',
    'El café de esta mañana estaba perfecto',
    'Mañana presentamos el proyecto, deseadnos suerte',
  ],
  fr: [
    'Quelle belle journée pour une balade au bord de la Seine',
    'Je viens de finir ce livre, quelle fin incroyable',
    'Réunion annulée, je retourne à mon code',
    'Qui a des conseils pour apprendre le piano à trente ans ?',
    'Le marché du dimanche, toujours un plaisir',
  ],
  de: [
    'Endlich Wochenende, Zeit für eine lange Radtour',
    'Der Zug hat wieder Verspätung, wie immer',
    'Heute zum ersten Mal selbst Brot gebacken',
    'Kann jemand ein gutes Buch über Statistik empfehlen?',
    'Die Konferenz war großartig, danke an alle',
  ],
  ja: [
    '今日はとても良い天気ですね',
    '新しいプロジェクトが始まりました',
    'この本は本当に面白かった',
    '週末は友達とラーメンを食べに行きます',
    '桜がもうすぐ咲きそうです',
  ],
  pt: [
    'Que dia lindo para ir à praia',
    'Alguém mais está acompanhando essa série?',
    'Acabei de lançar a nova versão do app',
    'Café da manhã reforçado antes da maratona',
    'Obrigado a todos pelo apoio neste projeto',
  ],
};

/** Includes astral emoji, a variation selector and a ZWJ sequence on purpose. */
export const EMOJI = ['🎉', '🚀', '🔥', '😂', '👀', '✨', '🙌', '📈', '🧵', '☕️', '👩‍💻', '❤️'] as const;

export const CASHTAGS = ['AAPL', 'TSLA', 'NVDA', 'MSFT', 'AMZN', 'BTC', 'ETH', 'GOOG', 'META', 'SPY'] as const;

export const TOPICS = [
  'OpenSource',
  'TypeScript',
  'Electron',
  'MachineLearning',
  'DataViz',
  'Climate',
  'Football',
  'WorldCup',
  'Photography',
  'Coffee',
  'Running',
  'Books',
  'Music',
  'Startups',
  'Design',
  'Accessibility',
  'Privacy',
  'Science',
  'Space',
  'Gaming',
  'Cooking',
  'Travel',
  'Jazz',
  'Chess',
  'Linux',
  'Rust',
  'Elections',
  'Markets',
] as const;

/** Shown as text, never as HTML: the renderer's XSS check uses posts that carry it. */
export const MARKUP_PROBE = '<img src=x onerror=alert(1)> & <b>bold</b>';
