// Writes a GPP reference fixture (Tests/IABInAppConsentTests/Fixtures/gppstrings-reference*.json): GPP strings that
// the IAB Tech Lab reference library iabgpp-es (@iabgpp/cmpapi; 3.2.0, and 3.1.4 for the sections' first versions)
// encoded from random models, each with what the same library decodes from it: the header's version and section
// ids, each section's string, the US Privacy section's fields and every field of each US section as the GPP in-app
// key it becomes. The test
// ReferenceGPPAgreementTests holds our GPP reader and key mapping to those answers.
// Run by scripts/reference-fixture; a tool only, never part of the library.
//   node scripts/reference-fixture-gpp.cjs BUNDLE [--count N] [--seed S]   → the fixture's JSON on standard output
// The in-app keys follow GPP CMP API v1.1 "In-App Details": IABGPP_HDR_Sections (ids joined by "_"),
// IABGPP_{id}_String, and per field IABGPP_{SECTION}_{Field} with the conversion table's types (Boolean → 0/1,
// Integer unchanged, a list of integers → its values joined by "_").
'use strict';
const setup = require('./reference-fixture-random.cjs')(process.argv);
const { library: gpp, libraryVersion, count, seed, integer, chance, pick } = setup;

// Some versions' encoders refuse combinations of notice and opt-out values (iabgpp-es 3.1.x validates each segment
// before encoding it); what is compared is the decoding, so every combination a string can carry is written.
Object.values(gpp).forEach((value) => {
  if (typeof value === 'function' && value.prototype && typeof value.prototype.validate === 'function') {
    value.prototype.validate = () => {};
  }
});
const usSections = gpp.Sections.SECTION_ORDER.filter((name) => name.startsWith('us') && name !== 'uspv1');
// Fields the library sets itself (versions, sub-section types) are left as it writes them.
const fixedFields = new Set(['Version', 'MspaVersion', 'GpcSegmentType', 'SubsectionType']);
// A US section's field names and default values, as the library's model holds them.
const defaults = (name) => {
  const model = new gpp.GppModel();
  model.setFieldValue(name, 'MspaCoveredTransaction', 1);
  return model.getSection(name);
};

const makeString = (index) => {
  const model = new gpp.GppModel();
  const chosen = usSections.filter(() => chance(0.12));
  if (chosen.length === 0) { chosen.push(pick(usSections)); }
  chosen.forEach((name) => {
    const fields = defaults(name);
    Object.entries(fields).forEach(([field, value]) => {
      if (fixedFields.has(field)) { return; }
      if (typeof value === 'boolean') { model.setFieldValue(name, field, chance(0.5)); }
      else if (Array.isArray(value)) { model.setFieldValue(name, field, value.map(() => integer(0, 2))); }
      else { model.setFieldValue(name, field, field === 'MspaCoveredTransaction' ? integer(1, 2) : integer(0, 2)); }
    });
    // The Global Privacy Control sub-section is optional (the model does not list its switch among the fields).
    if ('Gpc' in fields) { model.setFieldValue(name, 'GpcSegmentIncluded', chance(0.7)); }
  });
  if (chance(0.3)) {
    ['Notice', 'OptOutSale', 'LspaCovered'].forEach((field) => {
      model.setFieldValue('uspv1', field, pick(['Y', 'N', '-']));
    });
  }
  // The TCF sections' dates are set too: the library's default is the time of the run.
  [['tcfeuv2', 0.2], ['tcfcav1', 0.15]].forEach(([name, p]) => {
    if (!chance(p)) { return; }
    const date = new Date(Date.UTC(integer(2020, 2027), integer(0, 11), integer(1, 28)));
    model.setFieldValue(name, 'CmpId', integer(2, 4095));
    model.setFieldValue(name, 'Created', date);
    model.setFieldValue(name, 'LastUpdated', date);
  });
  const string = model.encode();

  const decoded = new gpp.GppModel(string);
  const ids = decoded.getSectionIds();
  const sectionStrings = string.split('~').slice(1);
  const keys = {
    IABGPP_HDR_Version: String(decoded.getHeader().Version),
    IABGPP_HDR_Sections: ids.join('_'),
    IABGPP_HDR_GppString: string,
  };
  ids.forEach((id, position) => { keys['IABGPP_' + id + '_String'] = sectionStrings[position]; });
  // The US Privacy section field by field, under GPP CMP API v1.1 "In-App Details"' example key names (the version a
  // Number, each other field its character as a String), from the library's field names.
  if (ids.includes(6)) {
    decoded.getFieldValue('uspv1', 'Version');
    const usp = decoded.getSection('uspv1');
    keys.IABGPP_USP1_Version = usp.Version;
    keys.IABGPP_USP1_Notice = usp.Notice;
    keys.IABGPP_USP1_OptOut = usp.OptOutSale;
    keys.IABGPP_USP1_LSPACovered = usp.LspaCovered;
  }
  chosen.forEach((name) => {
    // (A field read first: iabgpp-es 3.1.x decodes a section only then, and getSection alone gives its defaults.)
    decoded.getFieldValue(name, 'MspaCoveredTransaction');
    const section = decoded.getSection(name);
    Object.entries(section).forEach(([field, value]) => {
      if (field === 'GpcSegmentType' || field === 'GpcSegmentIncluded') { return; }
      if (field === 'Gpc' && !decoded.getFieldValue(name, 'GpcSegmentIncluded')) { return; }
      const key = 'IABGPP_' + name.toUpperCase() + '_' + field;
      if (typeof value === 'boolean') { keys[key] = value ? 1 : 0; }
      else if (Array.isArray(value)) { keys[key] = value.join('_'); }
      else { keys[key] = value; }
    });
  });
  return { name: 'reference-gpp-' + String(index + 1).padStart(3, '0'), string, sections: chosen, keys };
};

const cases = [];
for (let i = 0; i < count; i++) { cases.push(makeString(i)); }
const fixture = {
  description: 'GPP strings encoded by the IAB Tech Lab reference library iabgpp-es ' + libraryVersion
    + ' (GppModel.encode, from '
    + 'random models of its US sections, sometimes with the US Privacy, TCF EU and TCF Canada sections) and, from the '
    + 'same library\'s decoding, the GPP in-app keys of the header, each section string and every US section field. '
    + 'Written by scripts/reference-fixture (seed ' + seed + ', ' + count + ' strings).',
  cases,
};
process.stdout.write(JSON.stringify(fixture, null, 0).replace(/\{"name"/g, '\n{"name"') + '\n');
