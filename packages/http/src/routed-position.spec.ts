import { broadcastText, compareStreamIds, isRoutedPosition, namesRoutedStream, parseRoutedEventId, routedEventId } from './routed-position';

describe('routed positions', () => {
  describe('parseRoutedEventId', () => {
    it('reads both positions of an id it wrote', () => {
      const id = routedEventId({ log: '1700000000000-3', broadcasts: '1700000000001-0' });
      expect(id).toBe('g_1700000000000-3_1700000000001-0');
      expect(parseRoutedEventId(id)).toEqual({ log: '1700000000000-3', broadcasts: '1700000000001-0' });
    });

    it('reads the log position alone from an id of an earlier version', () => {
      expect(parseRoutedEventId('g_1700000000000-3')).toEqual({ log: '1700000000000-3' });
    });

    it('refuses anything else: no position is asked of the store', () => {
      for (const id of [
        'g_',
        'g__1-0',
        'g_1-0_',
        'g_1-0_x',
        'g_1-0_1-0_1-0',
        'g_18446744073709551616-0_1-0',
        'g_1-0_0-18446744073709551616',
        'g_-1-0',
        's1_5',
      ]) {
        expect([id, parseRoutedEventId(id)]).toEqual([id, undefined]);
      }
    });
  });

  describe('namesRoutedStream', () => {
    it('tells the routed stream from POST streams (whose names have no underscore)', () => {
      expect(namesRoutedStream('g_1-0_0-0')).toBe(true);
      expect(namesRoutedStream('g_garbage')).toBe(true);
      expect(namesRoutedStream('gamma-1a2b3c4d5e6f-s1_4')).toBe(false);
    });
  });

  describe('isRoutedPosition', () => {
    it('takes Redis stream ids up to 2^64 - 1 in each part', () => {
      expect(isRoutedPosition('18446744073709551615-18446744073709551615')).toBe(true);
      expect(isRoutedPosition('5')).toBe(true);
      expect(isRoutedPosition('18446744073709551616-0')).toBe(false);
      expect(isRoutedPosition('1-2-3')).toBe(false);
    });
  });

  describe('compareStreamIds', () => {
    it('orders ids as Redis does, past what a double holds exactly', () => {
      expect(compareStreamIds('5-1', '5-10')).toBeLessThan(0);
      expect(compareStreamIds('10-0', '9-99')).toBeGreaterThan(0);
      expect(compareStreamIds('7', '7-0')).toBe(0);
      expect(compareStreamIds('18446744073709551615-1', '18446744073709551614-9')).toBeGreaterThan(0);
      expect(compareStreamIds('9007199254740993-0', '9007199254740992-0')).toBeGreaterThan(0);
    });
  });

  describe('broadcastText', () => {
    it('writes the notification of a list change or a resource update', () => {
      expect(JSON.parse(broadcastText({ list: 'prompts' }))).toEqual({ jsonrpc: '2.0', method: 'notifications/prompts/list_changed' });
      expect(JSON.parse(broadcastText({ uri: 'notes://1' }))).toEqual({
        jsonrpc: '2.0',
        method: 'notifications/resources/updated',
        params: { uri: 'notes://1' },
      });
    });
  });
});
