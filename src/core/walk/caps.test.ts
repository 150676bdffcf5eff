import { describe, expect, it } from 'vitest';
import { capStop, type Budget } from './caps';

const credits = (left: number, cost: number): Budget => ({ name: 'credits', left, cost });

describe('capStop', () => {
  it('lets a page through that fits what is left, to the last credit', () => {
    expect(capStop([credits(100, 60)])).toBeNull();
    expect(capStop([credits(60, 60)])).toBeNull();
  });

  it('stops before the page that would pass the cap, not after it', () => {
    expect(capStop([credits(59, 60)])).toMatchObject({ name: 'credits', left: 59, cost: 60 });
  });

  it('a page cap of 3 stops before the fourth page', () => {
    const pages = (read: number): Budget => ({ name: 'pages', left: 3 - read, cost: 1 });
    expect(capStop([pages(2)])).toBeNull();
    expect(capStop([pages(3)])?.name).toBe('pages');
  });

  it('names the first cap, in the order given, that the page would pass', () => {
    const stop = capStop([{ name: 'run', left: 500, cost: 60 }, credits(10, 60), { name: 'total', left: 0, cost: 60 }]);
    expect(stop?.name).toBe('credits');
  });

  it('a walk with no caps is never stopped by one', () => {
    expect(capStop([])).toBeNull();
  });
});
