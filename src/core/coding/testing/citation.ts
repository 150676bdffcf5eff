/** A share package's citation as the form sends it, filled in: the tests' one. */
export const aCitation = {
  title: 'Stance pilot',
  authors: [{ familyNames: 'Example', givenNames: 'Ana' }],
  description: '',
  keywords: [],
  license: 'CC-BY-4.0',
  version: '1.0',
  publisher: '',
};
