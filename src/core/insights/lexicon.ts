/**
 * Phrase lexicon: [pattern, polarity, aspect?]. Patterns are lower-case words; `*` stands for
 * up to three words, `a|b` for alternatives. Longer matches win. A pattern that starts with a
 * negator carries its own negation and is never flipped again. Polarity: about ±1 for plain
 * words, ±2 for strong ones. Written for home-service reviews: a general lexicon reads "price
 * was way too high" as neutral and "no mess" as negative.
 */
export type LexEntry = [pattern: string, polarity: number, aspect?: string];

const P = 'punctuality';
const $ = 'pricing';
const C = 'communication';
const R = 'professionalism';
const Q = 'quality_of_work';
const K = 'technical_knowledge';
const L = 'cleanliness';
const S = 'scheduling';
const CS = 'customer_service';
const W = 'warranty';

export const DOMAIN_LEXICON: LexEntry[] = [
  // punctuality
  ['on time', 1.5, P], ['right on time', 2, P], ['punctual', 1.5, P], ['prompt', 1, P], ['promptly', 1, P], ['early', 1, P],
  ['on schedule', 1, P], ['sharp', 1, P], ['within the arrival window', 1.5, P], ['when they said', 1, P], ['when he said', 1, P],
  ['late', -1.5, P], ['running late', -1, P], ['running behind', -1, P], ['hours late', -2, P], ['no-show', -2, P], ['no show', -2, P],
  ['never showed', -2, P], ['never showed up', -2, P], ['nobody showed up', -2, P], ['no one showed up', -2, P], ['no one came', -2, P],
  ['nobody came', -2, P], ['waited all day', -2, P], ['after the window', -1.5, P],
  // pricing
  ['fair price', 1.5, $], ['reasonable', 1, $], ['reasonably priced', 1.5, $], ['affordable', 1.5, $], ['inexpensive', 1.5, $],
  ['cheap', 1, $], ['cheapest', 1, $], ['value', 0.5, $], ['good value', 1.5, $], ['great value', 2, $], ['worth it', 1.5, $],
  ['worth every penny', 2, $], ['worth the money', 1.5, $], ['no surprises', 1.5, $], ['upfront', 1, $], ['up front', 1, $],
  ['stuck to it', 1, $], ['competitive', 1, $], ['saved us', 1.5, $], ['saved me', 1.5, $], ['waived', 1.5, $],
  ['lower than', 1, $], ['honest pricing', 2, $], ['no upselling', 1.5, $], ['no upsell', 1.5, $],
  ['expensive', -1.5, $], ['pricey', -1, $], ['overpriced', -2, $], ['overcharged', -2, $], ['overcharge', -2, $], ['overcharging', -2, $],
  ['rip off', -2, $], ['rip-off', -2, $], ['ripoff', -2, $], ['ripped off', -2, $], ['gouging', -2, $], ['too high', -1.5, $],
  ['way too high', -2, $], ['too much', -1.5, $], ['way too much', -2, $], ['way more than', -1.5, $], ['more than quoted', -1.5, $],
  ['double the quote', -2, $], ['hidden fees', -2, $], ['extra fees', -1, $], ['extra charges', -1, $], ['upsell', -1.5, $],
  ['upselling', -1.5, $], ['upsold', -1.5, $], ['higher than', -1, $], ['billed another', -1.5, $], ['just to look', -1, $],
  ['charge me again', -1.5, $], ['was high', -1, $], ['were high', -1, $], ['is high', -1, $], ['are high', -1, $], ['high price', -1.5, $], ['high prices', -1.5, $],
  // communication
  ['explained', 1, C], ['explain', 1, C], ['explaining', 1, C], ['kept me updated', 1.5, C], ['kept us updated', 1.5, C],
  ['kept me informed', 1.5, C], ['kept us informed', 1.5, C], ['walked me through', 1.5, C], ['walked us through', 1.5, C],
  ['answered', 1, C], ['responsive', 1.5, C], ['unresponsive', -2, C], ['texted', 1, C], ['called ahead', 1.5, C], ['called back', 1, C],
  ['called me back', 1, C], ['call back', 1, C], ['call me back', 1, C], ['heard back', 1, C], ['returned my call', 1.5, C],
  ['returned my calls', 1.5, C], ['return my call', 1, C], ['return my calls', 1, C], ['let me know', 1, C], ['let us know', 1, C],
  ['told', 0.5, C], ['mentioned', 0.5, C], ['clear communication', 2, C], ['great communication', 2, C], ['poor communication', -2, C],
  ['had to chase', -1.5, C], ['ignored my', -2, C], ['no one bothered', -1.5, C], ['nobody bothered', -1.5, C], ['left me guessing', -1, C],
  ['on the way', 0.5, C],
  // professionalism
  ['professional', 1.5, R], ['professionally', 1.5, R], ['unprofessional', -2, R], ['courteous', 1.5, R], ['polite', 1.5, R],
  ['respectful', 1.5, R], ['friendly', 1.5, R], ['kind', 1.5, R], ['kindness', 1.5, R], ['nice guy', 1.5, R], ['personable', 1.5, R],
  ['honest', 1.5, R], ['trustworthy', 1.5, R], ['treated * with care', 1.5, R], ['rude', -2, R], ['condescending', -2, R],
  ['dismissive', -1.5, R], ['arrogant', -2, R], ['argued', -1.5, R], ['pushy', -1.5, R], ['smoking', -1.5, R], ['bother', -1, R],
  ['on the phone the whole', -1.5, R], ['disrespectful', -2, R],
  // quality of work
  ['works', 1, Q], ['worked', 1, Q], ['working', 1, Q], ['runs great', 2, Q], ['runs better', 2, Q], ['runs', 0.5, Q],
  ['works like a charm', 2, Q], ['done right', 1.5, Q], ['right the first time', 2, Q], ['done well', 1.5, Q], ['quality work', 2, Q],
  ['fixed', 1, Q], ['fix', 1, Q], ['for the same repair', -1, W], ['part failed again', -2, Q], ['fixed it', 1.5, Q], ['solved', 1.5, Q], ['no more leaks', 2, Q], ['finally working', 2, Q], ['finally cool', 2, Q],
  ['finally warm', 2, Q], ['noise is gone', 2, Q], ['like new', 1.5, Q], ['came out great', 2, Q],
  ['had a problem since', -1.5, Q], ['problem since', -1.5, Q], ['not a single problem', 2, Q],
  ["doesn't work", -2, Q], ['does not work', -2, Q], ["didn't work", -2, Q], ['did not work', -2, Q], ["isn't working", -2, Q],
  ['not working', -2, Q], ["doesn't run", -2, Q], ['does not run', -2, Q], ['stopped working again', -2, Q], ['never worked', -2, Q],
  ['still broken', -2, Q], ['still leaking', -2, Q], ['still leaks', -2, Q], ['still no', -2, Q], ['still making', -1.5, Q],
  ['leak came back', -2, Q], ['problem came back', -2, Q], ['broke again', -2, Q], ['failed again', -2, Q],
  ['clogged again', -2, Q], ['broken again', -2, Q], ['leaking again', -2, Q], ['sloppy', -2, Q], ['shoddy', -2, Q], ['redone', -1.5, Q],
  ['made * worse', -2, Q], ['damaged', -2, Q], ['wrong part', -1.5, Q], ['only lasted', -1.5, Q], ["didn't last", -1.5, Q],
  ['did not last', -1.5, Q], ["didn't repair", -1.5, Q], ['fail', -1, Q], ['failed', -1, Q], ['part failed', 0], ['a part failed', 0],
  // technical knowledge
  ['knowledgeable', 1.5, K], ['knew', 1, K], ['knew exactly', 2, K], ['knows her stuff', 2, K], ['knows his stuff', 2, K],
  ['knows their stuff', 2, K], ['knew the job', 1.5, K], ['know what', 1, K], ['knew what', 1.5, K], ['expert', 1.5, K],
  ['experienced', 1.5, K], ['ever experienced', 0], ['skilled', 1.5, K], ['diagnosed', 1.5, K], ['found the', 1, K], ['figured out', 1.5, K],
  ['figure out', 1, K], ['misdiagnosed', -2, K], ['clueless', -2, K], ['inexperienced', -2, K], ['no idea', -2, K],
  ['call his supervisor', -1.5, K], ['call her supervisor', -1.5, K],
  // cleanliness
  ['clean', 1.5, L], ['cleaned up', 1.5, L], ['clean up', 1, L], ['cleaned', 1, L], ['tidy', 1.5, L], ['spotless', 2, L],
  ['no mess', 2, L], ['drop cloths', 1.5, L], ['vacuumed', 1.5, L], ['shoe covers', 1.5, L], ['not a speck', 2, L],
  ['cleaner than', 2, L], ['mess', -1.5, L], ['messy', -1.5, L], ['leave a mess', -1.5, L], ['left a mess', -2, L], ['debris', -1.5, L],
  ['footprints', -1.5, L], ['muddy', -1.5, L], ['trash', -1.5, L], ['filthy', -2, L], ['dirty', -1.5, L], ['all over the floor', -1.5, L],
  // scheduling
  ['same day', 1.5, S], ['same-day', 1.5, S], ['came the next morning', 1, S], ['came the next day', 1, S], ['out the next morning', 1, S], ['out the next day', 1, S], ['fit us in', 1.5, S], ['fit me in', 1.5, S],
  ['got us in', 1.5, S], ['got me in', 1.5, S], ['easy to schedule', 1.5, S], ['quick response', 1.5, S], ['within an hour', 1.5, S],
  ['available', 1, S], ['flexible', 1.5, S], ['emergency service', 1.5, S], ['get an appointment', 1, S], ['two weeks out', -2, S],
  ['weeks out', -2, S], ['rescheduled', -1.5, S], ['rescheduling', -1.5, S], ['cancelled', -1.5, S], ['canceled', -1.5, S],
  ['hard to get an appointment', -2, S], ['took forever', -1.5, S], ['no availability', -2, S], ['pushing * back', -1.5, S],
  ['long wait', -1.5, S],
  // customer service
  ['helpful', 1, CS], ['unhelpful', -1.5, CS], ['above and beyond', 2, CS], ['made everything easy', 1.5, CS], ['hung up on', -2, CS],
  ['refused to help', -2, CS],
  // warranty and follow-up
  ['under warranty', 2, W], ['honored', 1.5, W], ['honor', 1, W], ['refused to honor', -2, W], ['came back and fixed', 2, W],
  ['came back for free', 2, W], ['stand behind', 1.5, W], ['stands behind', 1.5, W], ['covered', 1, W], ['follow up', 1, W],
  ['follow-up', 1, W], ['followed up', 1.5, W], ['make sure everything was working', 1.5, W],
];

/** Words that carry sentiment but no aspect: they colour whatever aspect their clause names. */
export const GENERAL_LEXICON: LexEntry[] = [
  ['great', 1.5], ['excellent', 2], ['amazing', 2], ['awesome', 2], ['fantastic', 2], ['wonderful', 2], ['perfect', 2], ['perfectly', 1.5],
  ['good', 1], ['fine', 0.5], ['best', 2], ['outstanding', 2], ['superb', 2], ['love', 1.5], ['happy', 1.5], ['pleased', 1.5],
  ['impressed', 1.5], ['recommend', 1.5], ['lovely', 1.5], ['efficient', 1], ['quick', 1], ['quickly', 1], ['fast', 1], ['easy', 1],
  ['smooth', 1], ['nice', 1], ['fair', 1], ['spot on', 1.5], ['lifesaver', 2], ['well', 0.5], ['thorough', 1.5], ['patiently', 1],
  ['patient', 1], ['help', 0.5], ['no charge', 1], ['free', 0.5], ['appreciated', 1],
  ['bad', -1.5], ['terrible', -2], ['awful', -2], ['horrible', -2], ['worst', -2], ['poor', -1.5], ['disappointing', -1.5],
  ['disappointed', -1.5], ['useless', -2], ['worthless', -2], ['insane', -1.5], ['outrageous', -2], ['ridiculous', -1.5],
  ['ridiculously', -1], ['hard', -1], ['difficult', -1], ['never again', -2], ['avoid', -2], ['wrong', -1], ['worse', -1.5],
  ['slow', -1], ['forever', -1], ['hassle', -1], ['refused', -1], ['ignored', -1.5], ['did not need', -1], ["didn't need", -1],
  ['what was wrong', 0], ["what's wrong", 0], ['what is wrong', 0],
];

export const NEGATORS = new Set([
  'not', 'no', 'never', 'nothing', 'nobody', 'none', 'without', 'hardly', 'barely', 'neither', 'nor', 'cannot',
  "don't", "doesn't", "didn't", "isn't", "wasn't", "aren't", "weren't", "won't", "wouldn't", "couldn't", "can't", "shouldn't",
  "haven't", "hasn't", "hadn't", 'dont', 'doesnt', 'didnt', 'isnt', 'wasnt', 'wont', 'couldnt', 'cant',
]);

export const INTENSIFIERS = new Map<string, number>([
  ['very', 1.5], ['really', 1.4], ['extremely', 1.8], ['super', 1.5], ['so', 1.3], ['incredibly', 1.8], ['absolutely', 1.6],
  ['totally', 1.4], ['truly', 1.4], ['highly', 1.4], ['completely', 1.4], ['exceptionally', 1.8], ['way', 1.3],
  ['bit', 0.6], ['little', 0.6], ['slightly', 0.5], ['somewhat', 0.6], ['kinda', 0.6], ['fairly', 0.7], ['pretty', 0.9],
]);
