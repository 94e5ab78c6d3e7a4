import { numberedPlaceholders, placeholderSegments } from './dialect';

describe('placeholders on PostgreSQL', () => {
  it('numbers each ? in order, leaving those inside quoted text and identifiers alone', () => {
    expect(numberedPlaceholders('UPDATE t SET a = a + ? WHERE id = ? AND b >= ?')).toBe('UPDATE t SET a = a + $1 WHERE id = $2 AND b >= $3');
    expect(numberedPlaceholders(`SELECT '?', "is?", 'it''s ?' FROM t WHERE x = ?`)).toBe(`SELECT '?', "is?", 'it''s ?' FROM t WHERE x = $1`);
  });
});

describe('placeholder segments', () => {
  it('cuts the text at each ? outside quotes, one more segment than placeholders', () => {
    expect(placeholderSegments('INSERT INTO t (a, "b?") VALUES (?, ?)')).toEqual(['INSERT INTO t (a, "b?") VALUES (', ', ', ')']);
    expect(placeholderSegments('SELECT 1')).toEqual(['SELECT 1']);
    expect(placeholderSegments('?')).toEqual(['', '']);
  });
});
