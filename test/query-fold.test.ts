/** Text folding (contract/query/fold.ts): what folds alike, what must stay apart, and that folding is stable. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { foldText, foldUnicode } from '../contract/query/fold.ts';

describe('foldText', () => {
  it('folds case, accents and the width of Latin letters alike', () => {
    for (const variant of ['pikachú', 'PIKACHU', 'Pikachu', 'ｐｉｋａｃｈｕ', 'ＰＩＫＡＣＨＵ', 'pi\u0301kachu']) {
      expect(foldText(variant), variant).toBe('pikachu');
    }
    expect(foldText('Évoli')).toBe('evoli');
    expect(foldText('Nidoran♀')).toBe('nidoran♀');
    expect(foldText('Čeština')).toBe('cestina');
  });

  it('folds half-width kana and hiragana to full-width katakana, keeping voicing marks', () => {
    expect(foldText('ﾋﾟｶﾁｭｳ')).toBe('ピカチュウ');
    expect(foldText('ぴかちゅう')).toBe('ピカチュウ');
    expect(foldText('ピカチュウ')).toBe('ピカチュウ');
    // the handakuten and dakuten make other words: they must not be stripped as accents
    expect(foldText('ヒカチユウ')).not.toBe(foldText('ピカチュウ'));
    expect(foldText('バ')).not.toBe(foldText('ハ'));
    expect(foldText('ハ\u3099')).toBe(foldText('バ'));
    expect(foldText('ゞ')).toBe('ヾ');
  });

  it('gives a Hangul syllable the same form whether it came composed or as jamo', () => {
    const composed = '피카츄';
    expect(foldText(composed.normalize('NFD'))).toBe(composed);
    expect(foldText(composed)).toBe(composed);
  });

  it('keeps Chinese characters as they are', () => {
    expect(foldText('皮卡丘')).toBe('皮卡丘');
    expect(foldText('皮卡丘')).not.toBe(foldText('比卡超'));
  });

  it('folds sharp s, final sigma and dotted capitals', () => {
    expect(foldText('Straße')).toBe(foldText('STRASSE'));
    expect(foldText('ẞ')).toBe('ss');
    expect(foldText('ΣΟΦΟΣ')).toBe(foldText('σοφος'));
    expect(foldText('İ')).toBe('i');
  });

  it('folds apostrophes, hyphens, underscores and white space runs', () => {
    expect(foldText('Farfetch’d')).toBe("farfetch'd");
    expect(foldText('mr-mime')).toBe('mr mime');
    expect(foldText('  Mr   Mime ')).toBe('mr mime');
    expect(foldText('Mr.\u3000Mime')).toBe('mr. mime');
    expect(foldText('tapu_koko')).toBe('tapu koko');
  });

  it('is idempotent on any text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => foldText(foldText(text)) === foldText(text)),
      { numRuns: 20_000 },
    );
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (text) => foldText(foldText(text)) === foldText(text)),
      { numRuns: 20_000 },
    );
  });

  it('gives on printable ASCII what the whole Unicode folding gives', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme-ascii' }), (text) => foldText(text) === foldUnicode(text)),
      { numRuns: 20_000 },
    );
  });
});
