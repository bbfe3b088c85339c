/** English word classes told by short lists and endings (no part-of-speech tagger): what topics and quoted phrases may start or end on. */

/** Verb forms by ending: past tense and participles ("needed", "tried"), not "need" or "speed". */
const PAST = /(?:[^e]ed|ied)$/;
const IRREGULAR_PAST = new Set('knew came went got kept took gave told said found made ran saw felt paid sent brought bought thought stood understood spent lost broke wrote drove held heard met sold showed shown gone given taken seen known broken written left put set'.split(' '));
/** Adverbs, particles and "like": "came back" is "came back and fixed it" and "the leak came back", opposite senses in one chip. */
const ADVERB = new Set('like much enough else almost nearly quite rather back away around down off over along apart together later earlier again already ever still even once twice afterwards ahead anymore anyway instead soon today tomorrow yesterday tonight well right fast exactly though'.split(' '));
/** -ly words that are not adverbs. */
const LY_NOT_ADVERB = new Set('friendly lovely timely costly early elderly daily weekly monthly yearly likely ugly silly family supply reply assembly anomaly rally belly'.split(' '));
/** Adjectives with no telling ending: a phrase ending on one is cut before its noun ("old electrical", "make sure"). */
const PLAIN_ADJECTIVE = new Set(
  'cold hot warm cool short long old new big small little huge tiny good great bad nice fine clean dirty quick fast slow late early polite rude kind happy sure real right wrong high low fair cheap free full empty ready safe easy hard simple clear whole same true busy open dry wet loud quiet prompt neat tidy calm honest smart friendly pleasant better worse cleaner faster cheaper quicker easier nicer higher lower bigger smaller longer shorter'.split(' '),
);
const ADJECTIVE_ENDING = /(?:ous|ful|less|ical|able|ible|ive)$/;
const NOT_ADJECTIVE = new Set('table cable vegetable drive olive detective executive representative relative incentive alternative initiative objective perspective motive archive'.split(' '));
/** "best technician" is the cut of "the best technician we have had": a superlative needs what it ranks against. */
export const SUPERLATIVE = /^(?:best|worst|most|least|\w+iest|greatest|nicest|fastest|quickest|cheapest|highest|lowest|finest|largest|biggest|smallest)$/;
/** Words that stand for an object: a topic only as what a verb did ("explained everything", not "sure everything"). */
export const PRONOUN = new Set('everything something anything everyone someone anyone'.split(' '));

/** Verbs in -s that end a subject and its verb ("unit works", "system runs"), not a noun phrase like "shoe covers". */
export const PRESENT_VERB = new Set('works runs knows does says makes takes seems looks feels sounds comes goes gets keeps needs wants cares stays lasts starts stops heats cools blows holds fits'.split(' '));

export const isPast = (w: string) => IRREGULAR_PAST.has(w) || PAST.test(w);
export const isAdverb = (w: string) => ADVERB.has(w) || (w.endsWith('ly') && !LY_NOT_ADVERB.has(w));
export const isAdjective = (w: string) => PLAIN_ADJECTIVE.has(w) || (ADJECTIVE_ENDING.test(w) && !NOT_ADJECTIVE.has(w));
