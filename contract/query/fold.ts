/**
 * Text folding: the one function that makes a name comparable, run by the build on every name it
 * indexes and by the request logic on `q`, so both sides fold with the same code.
 *
 * What folds alike, in this order:
 * 1. Width and compatibility forms (NFKC): full-width Latin `ｐｉｋａ` is `pika`, half-width
 *    kana `ﾋﾟｶﾁｭｳ` is `ピカチュウ`, `ﬁ` is `fi`, a full-width space is a space.
 * 2. Letter case, by lowercasing, uppercasing and lowercasing again, so that `ẞ`, `ß` and `ss`, and final
 *    and medial sigma, fold alike (a locale-free approximation of Unicode case folding).
 * 3. Accents: the string is decomposed (NFD) and only the marks of the combining-diacritics
 *    blocks are dropped (the accents of Latin, Greek and Cyrillic), then recomposed (NFC). Every
 *    other mark stays: the kana voicing marks (`ピ` ≠ `ヒ`), Indic vowel signs. Hangul syllables
 *    decompose into jamo under NFD and are recomposed by NFC, so a syllable typed either way
 *    folds to the same composed syllable on both sides.
 * 4. Hiragana becomes katakana. The data names species in katakana but many moves, items and
 *    abilities in hiragana (`たいあたり`), and an input method shows hiragana while a word is
 *    being typed: one script lets an autocomplete box match from the first kana.
 * 5. Typographic apostrophes become `'` (`Farfetch’d`), and hyphens, underscores and runs of
 *    white space become one space, trimmed: `mr-mime`, `Mr Mime` and `mr  mime` fold alike.
 *
 * Not folded: Simplified and Traditional Chinese (different characters), `æ`/`œ` (not
 * decompositions), any punctuation but the above.
 */

/** The combining-diacritics blocks: general, extended, supplement, for symbols, half marks. */
// eslint-disable-next-line no-misleading-character-class -- the marks are matched on their own, after NFD has split them from their letters
const DIACRITIC = /[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]/g;
const HIRAGANA = /[\u3041-\u3096\u309d\u309e]/g;
/** Katakana sits 0x60 above hiragana, the iteration marks ゝゞ included (ヽヾ). */
const KANA_OFFSET = 0x60;
const APOSTROPHE = /[\u2018\u2019\u02bc\uff07]/g;
const SEPARATOR = /[\s_\-\u2010\u2011]+/g;

const toKatakana = (kana: string): string => String.fromCharCode(kana.charCodeAt(0) + KANA_OFFSET);
/** Printable ASCII is its own NFKC, NFD and NFC, and only its case and separators fold. */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** The comparable form of a name or query. Pure, and idempotent: `foldText(foldText(s)) === foldText(s)`. */
export function foldText(text: string): string {
  // about half the names the build folds are printable ASCII, which this path folds several times faster
  if (PRINTABLE_ASCII.test(text)) return text.toLowerCase().replace(SEPARATOR, ' ').trim();
  return foldUnicode(text);
}

/** The whole folding, for any text; `foldText` gives the same result faster on printable ASCII (tests compare both). */
export function foldUnicode(text: string): string {
  const widthFolded = text.normalize('NFKC');
  const lower = widthFolded.toLowerCase().toUpperCase().toLowerCase();
  const unaccented = lower.normalize('NFD').replace(DIACRITIC, '').normalize('NFC');
  return unaccented.replace(HIRAGANA, toKatakana).replace(APOSTROPHE, "'").replace(SEPARATOR, ' ').trim();
}
