/**
 * The aspect taxonomy for service businesses. Versioned: the insights document's `version`
 * moves when an id is added, removed or changes meaning, so consumers can tell.
 */
export const TAXONOMY_VERSION = 1;

export interface AspectDef {
  id: string;
  label: string;
  /** Phrases that mention the aspect without saying anything good or bad about it. */
  cues: string[];
  /** Operator-added aspects bring their own praise and complaint phrases. */
  positive?: string[];
  negative?: string[];
}

export const BUILTIN_ASPECTS: readonly AspectDef[] = [
  { id: 'punctuality', label: 'Punctuality', cues: ['arrive', 'arrived', 'arrival', 'showed up', 'show up', 'arrival window', 'timing'] },
  {
    id: 'pricing',
    label: 'Pricing and value',
    cues: ['price', 'prices', 'pricing', 'cost', 'costs', 'bill', 'billed', 'billing', 'quote', 'quoted', 'quotes', 'estimate', 'charge', 'charged', 'charges', 'fee', 'fees', 'rate', 'rates', 'paid', 'invoice', 'flat rate'],
  },
  { id: 'communication', label: 'Communication', cues: ['communication', 'communicate', 'communicated', 'voicemail', 'voicemails', 'messages', 'emails', 'questions', 'asked for an update'] },
  { id: 'professionalism', label: 'Professionalism', cues: ['attitude', 'manner', 'demeanor', 'salesman'] },
  { id: 'quality_of_work', label: 'Quality of work', cues: ['the work', 'their work', 'his work', 'her work', 'quality of work', 'repair', 'job', 'installation', 'workmanship'] },
  { id: 'technical_knowledge', label: 'Technical knowledge', cues: ['diagnosis', 'expertise', 'knowledge'] },
  { id: 'cleanliness', label: 'Cleanliness', cues: ['cleanup', 'clean-up', 'work area'] },
  { id: 'scheduling', label: 'Scheduling and availability', cues: ['appointment', 'schedule', 'scheduled', 'scheduling', 'booking', 'availability'] },
  {
    id: 'customer_service',
    label: 'Customer service',
    cues: ['customer service', 'office', 'staff', 'receptionist', 'dispatcher', 'manager', 'front desk', 'woman on the phone', 'lady on the phone', 'person on the phone', 'office staff'],
  },
  { id: 'warranty', label: 'Warranty and follow-up', cues: ['warranty', 'guarantee', 'guaranteed'] },
];

/** Aspects whose cues name the people answering the phone: staff adjectives in their clause belong to customer service. */
export const STAFF_ASPECT = 'customer_service';
export const CONDUCT_ASPECT = 'professionalism';
