// Writes Tests/IABInAppConsentTests/Fixtures/tcstrings-reference.json: TC strings that the IAB reference library,
// @iabtcf/core 1.5.6, encoded from random models, each with what the same library decodes from it. The test
// ReferenceDecoderAgreementTests holds our decoder and key mapping to those answers, so the oracle is the IAB's code,
// not ours. Run by scripts/reference-fixture; a tool only, never part of the library.
//   node scripts/reference-fixture.cjs BUNDLE [--count N] [--seed S]   → the fixture's JSON on standard output
// The models cover what a real string can carry: vendor sets that the encoder writes as a bitfield or as ranges
// (sparse, dense, runs, empty, ids up to 9,000), publisher restrictions (ranges that skip ids the vendor list does not
// have, as the encoder writes them), the PublisherTC, DisclosedVendors and AllowedVendors segments in any order,
// creation dates from 2020 to 2027, every policy version the TCF has used.
'use strict';
const setup = require('./reference-fixture-random.cjs')(process.argv);
const { library: core, count, seed, random, integer, chance, pick } = setup;

// A set of ids in one of the shapes real strings have; the encoder chooses bitfield or ranges by length.
const idSet = (maxId) => {
  const ids = new Set();
  // (Random dense sets only up to 1,200 ids: their runs would make the fixture large, and they are bitfields anyway.)
  const shapes = ['empty', 'sparse', 'runs', 'all', 'one'].concat(maxId <= 1200 ? ['dense'] : []);
  switch (pick(shapes)) {
  case 'empty': break;
  case 'one': ids.add(integer(1, maxId)); break;
  case 'all': for (let id = 1; id <= maxId; id++) { ids.add(id); } break;
  case 'sparse': { const n = integer(1, 12); for (let i = 0; i < n; i++) { ids.add(integer(1, maxId)); } break; }
  case 'dense': {
    const p = random();
    for (let id = 1; id <= maxId; id++) { if (random() < p) { ids.add(id); } }
    break;
  }
  case 'runs': {
    const n = integer(1, 8);
    for (let i = 0; i < n; i++) {
      const start = integer(1, maxId);
      const end = Math.min(maxId, start + integer(0, 400));
      for (let id = start; id <= end; id++) { ids.add(id); }
    }
    break;
  }
  }
  return [...ids].sort((a, b) => a - b);
};
const vendorMax = () => pick([1, 40, 300, 850, 1200, 3000, 9000]);
const fill = (vector, ids) => { ids.forEach((id) => vector.set(id)); };
const letters = () => String.fromCharCode(integer(65, 90), integer(65, 90));
const languages = ['EN', 'DE', 'FR', 'NL', 'ES', 'IT', 'PL', 'SV', 'FI', 'PT', 'BG', 'JA', 'ZH'];

// Ids as [first, last] runs: the fixture stays small for dense sets.
const runs = (ids) => {
  const out = [];
  ids.forEach((id) => {
    const last = out[out.length - 1];
    if (last && last[1] === id - 1) { last[1] = id; } else { out.push([id, id]); }
  });
  return out;
};
const vectorIds = (vector) => {
  const ids = [];
  vector.forEach((value, id) => { if (value) { ids.push(id); } });
  return ids;
};

const makeString = (index) => {
  const model = new core.TCModel();
  model.cmpId = integer(2, 4095);
  model.cmpVersion = integer(1, 4095);
  model.consentScreen = integer(0, 63);
  model.consentLanguage = pick(languages);
  model.vendorListVersion = integer(1, 4095);
  model.policyVersion = pick([2, 4, 5, 5, 5]);
  model.isServiceSpecific = true;
  model.useNonStandardStacks = chance(0.2);
  model.purposeOneTreatment = chance(0.15);
  model.publisherCountryCode = chance(0.2) ? 'AA' : letters();
  const created = new Date(Date.UTC(integer(2020, 2027), integer(0, 11), integer(1, 28)));
  model.created = created;
  model.lastUpdated = created;
  fill(model.specialFeatureOptins, idSet(12));
  fill(model.purposeConsents, idSet(24));
  fill(model.purposeLegitimateInterests, idSet(24));
  fill(model.vendorConsents, idSet(vendorMax()));
  fill(model.vendorLegitimateInterests, idSet(vendorMax()));

  // Publisher restrictions, for vendors of the vendor list (as a CMP writes them) and at most one type for a vendor
  // and purpose (TCF "Publisher Restrictions"). Their ranges are written over the list's ids, so a list with gaps
  // makes ranges that also cover ids it does not have.
  const listMax = vendorMax();
  const listIds = new Set();
  for (let id = 1; id <= listMax; id++) { if (!chance(0.3)) { listIds.add(id); } }
  model.publisherRestrictions.gvl = { vendorIds: listIds };
  const taken = new Set();
  const restrictions = chance(0.5) ? integer(1, 5) : 0;
  for (let i = 0; i < restrictions; i++) {
    const purpose = integer(1, 24);
    const type = integer(0, 2);
    const restriction = new core.PurposeRestriction(purpose, type);
    idSet(listMax).forEach((vendor) => {
      if (!listIds.has(vendor) || taken.has(purpose + ':' + vendor)) { return; }
      taken.add(purpose + ':' + vendor);
      model.publisherRestrictions.add(vendor, restriction);
    });
  }

  const segments = [];
  if (chance(0.4)) {
    fill(model.publisherConsents, idSet(24));
    fill(model.publisherLegitimateInterests, idSet(24));
    const custom = chance(0.7) ? integer(1, 40) : 0;
    model.numCustomPurposes = custom;
    if (custom > 0) {
      fill(model.publisherCustomConsents, idSet(custom));
      fill(model.publisherCustomLegitimateInterests, idSet(custom));
    }
    segments.push(core.Segment.PUBLISHER_TC);
  }
  if (chance(0.6)) { fill(model.vendorsDisclosed, idSet(vendorMax())); segments.push(core.Segment.VENDORS_DISCLOSED); }
  if (chance(0.15)) { fill(model.vendorsAllowed, idSet(vendorMax())); segments.push(core.Segment.VENDORS_ALLOWED); }
  for (let i = segments.length - 1; i > 0; i--) {
    const j = integer(0, i);
    [segments[i], segments[j]] = [segments[j], segments[i]];
  }
  // The encoder's own segments, without its semantic pre-encoding (which needs a full vendor list and rewrites the
  // model by vendor declarations): what is compared is the decoding of this string, by the library and by ours.
  const string = [core.Segment.CORE].concat(segments)
    .map((segment) => core.SegmentEncoder.encode(model, segment)).join('.');

  const decoded = core.TCString.decode(string);
  const restrictionsOut = decoded.publisherRestrictions.getRestrictions().map((restriction) => ({
    purpose: restriction.purposeId, type: restriction.restrictionType,
    vendors: runs(decoded.publisherRestrictions.getVendors(restriction)),
  })).sort((a, b) => a.purpose - b.purpose || a.type - b.type);
  const hasSegment = (segment) => segments.includes(segment);
  const expected = {
    cmpId: decoded.cmpId, cmpVersion: decoded.cmpVersion, consentScreen: decoded.consentScreen,
    consentLanguage: decoded.consentLanguage, vendorListVersion: decoded.vendorListVersion,
    policyVersion: decoded.policyVersion, isServiceSpecific: decoded.isServiceSpecific,
    useNonStandardTexts: decoded.useNonStandardStacks, purposeOneTreatment: decoded.purposeOneTreatment,
    publisherCountryCode: decoded.publisherCountryCode,
    createdDeciseconds: Math.round(decoded.created.getTime() / 100),
    lastUpdatedDeciseconds: Math.round(decoded.lastUpdated.getTime() / 100),
    specialFeatureOptIns: runs(vectorIds(decoded.specialFeatureOptins)),
    purposeConsents: runs(vectorIds(decoded.purposeConsents)),
    purposeLegitimateInterests: runs(vectorIds(decoded.purposeLegitimateInterests)),
    vendorConsents: runs(vectorIds(decoded.vendorConsents)),
    vendorLegitimateInterests: runs(vectorIds(decoded.vendorLegitimateInterests)),
    publisherRestrictions: restrictionsOut,
    publisherTC: hasSegment(core.Segment.PUBLISHER_TC) ? {
      purposeConsents: runs(vectorIds(decoded.publisherConsents)),
      purposeLegitimateInterests: runs(vectorIds(decoded.publisherLegitimateInterests)),
      numberOfCustomPurposes: Number(decoded.numCustomPurposes),
      customPurposeConsents: runs(vectorIds(decoded.publisherCustomConsents)),
      customPurposeLegitimateInterests: runs(vectorIds(decoded.publisherCustomLegitimateInterests)),
    } : null,
    disclosedVendors: hasSegment(core.Segment.VENDORS_DISCLOSED) ? runs(vectorIds(decoded.vendorsDisclosed)) : null,
    allowedVendors: hasSegment(core.Segment.VENDORS_ALLOWED) ? runs(vectorIds(decoded.vendorsAllowed)) : null,
  };
  return { name: 'reference-' + String(index + 1).padStart(3, '0'), string, expected };
};

const cases = [];
for (let i = 0; i < count; i++) { cases.push(makeString(i)); }
const fixture = {
  description: 'TC strings encoded by the IAB reference library @iabtcf/core 1.5.6 (its SegmentEncoder, from random '
    + 'models) and the fields the same library decodes from each (TCString.decode). Written by '
    + 'scripts/reference-fixture (seed ' + seed + ', ' + count + ' strings); id sets are [first, last] runs.',
  cases,
};
process.stdout.write(JSON.stringify(fixture, null, 0).replace(/\{"name"/g, '\n{"name"') + '\n');
