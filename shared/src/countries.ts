// Countries of a shipping address: the ISO 3166-1 alpha-2 codes, the default (United States), the
// names the forms and receipts show and each country's postal order of an address's last lines.
import { formatAddress } from 'localized-address-format';

/** Every officially assigned ISO 3166-1 alpha-2 code, sorted. */
export const COUNTRY_CODES = [
  'AD',
  'AE',
  'AF',
  'AG',
  'AI',
  'AL',
  'AM',
  'AO',
  'AQ',
  'AR',
  'AS',
  'AT',
  'AU',
  'AW',
  'AX',
  'AZ',
  'BA',
  'BB',
  'BD',
  'BE',
  'BF',
  'BG',
  'BH',
  'BI',
  'BJ',
  'BL',
  'BM',
  'BN',
  'BO',
  'BQ',
  'BR',
  'BS',
  'BT',
  'BV',
  'BW',
  'BY',
  'BZ',
  'CA',
  'CC',
  'CD',
  'CF',
  'CG',
  'CH',
  'CI',
  'CK',
  'CL',
  'CM',
  'CN',
  'CO',
  'CR',
  'CU',
  'CV',
  'CW',
  'CX',
  'CY',
  'CZ',
  'DE',
  'DJ',
  'DK',
  'DM',
  'DO',
  'DZ',
  'EC',
  'EE',
  'EG',
  'EH',
  'ER',
  'ES',
  'ET',
  'FI',
  'FJ',
  'FK',
  'FM',
  'FO',
  'FR',
  'GA',
  'GB',
  'GD',
  'GE',
  'GF',
  'GG',
  'GH',
  'GI',
  'GL',
  'GM',
  'GN',
  'GP',
  'GQ',
  'GR',
  'GS',
  'GT',
  'GU',
  'GW',
  'GY',
  'HK',
  'HM',
  'HN',
  'HR',
  'HT',
  'HU',
  'ID',
  'IE',
  'IL',
  'IM',
  'IN',
  'IO',
  'IQ',
  'IR',
  'IS',
  'IT',
  'JE',
  'JM',
  'JO',
  'JP',
  'KE',
  'KG',
  'KH',
  'KI',
  'KM',
  'KN',
  'KP',
  'KR',
  'KW',
  'KY',
  'KZ',
  'LA',
  'LB',
  'LC',
  'LI',
  'LK',
  'LR',
  'LS',
  'LT',
  'LU',
  'LV',
  'LY',
  'MA',
  'MC',
  'MD',
  'ME',
  'MF',
  'MG',
  'MH',
  'MK',
  'ML',
  'MM',
  'MN',
  'MO',
  'MP',
  'MQ',
  'MR',
  'MS',
  'MT',
  'MU',
  'MV',
  'MW',
  'MX',
  'MY',
  'MZ',
  'NA',
  'NC',
  'NE',
  'NF',
  'NG',
  'NI',
  'NL',
  'NO',
  'NP',
  'NR',
  'NU',
  'NZ',
  'OM',
  'PA',
  'PE',
  'PF',
  'PG',
  'PH',
  'PK',
  'PL',
  'PM',
  'PN',
  'PR',
  'PS',
  'PT',
  'PW',
  'PY',
  'QA',
  'RE',
  'RO',
  'RS',
  'RU',
  'RW',
  'SA',
  'SB',
  'SC',
  'SD',
  'SE',
  'SG',
  'SH',
  'SI',
  'SJ',
  'SK',
  'SL',
  'SM',
  'SN',
  'SO',
  'SR',
  'SS',
  'ST',
  'SV',
  'SX',
  'SY',
  'SZ',
  'TC',
  'TD',
  'TF',
  'TG',
  'TH',
  'TJ',
  'TK',
  'TL',
  'TM',
  'TN',
  'TO',
  'TR',
  'TT',
  'TV',
  'TW',
  'TZ',
  'UA',
  'UG',
  'UM',
  'US',
  'UY',
  'UZ',
  'VA',
  'VC',
  'VE',
  'VG',
  'VI',
  'VN',
  'VU',
  'WF',
  'WS',
  'YE',
  'YT',
  'ZA',
  'ZM',
  'ZW',
] as const;

/** An ISO 3166-1 alpha-2 code. */
export type CountryCode = (typeof COUNTRY_CODES)[number];

/** The country of an address that names none (orders, links and clients from before countries). */
export const DEFAULT_COUNTRY = 'US' satisfies CountryCode;

/** The codes other than the United States (whose addresses follow the US rules). */
export const NON_US_COUNTRY_CODES = COUNTRY_CODES.filter(
  (code): code is Exclude<CountryCode, 'US'> => code !== DEFAULT_COUNTRY,
);

const CODES: ReadonlySet<string> = new Set(COUNTRY_CODES);

/** True when `code` is one of COUNTRY_CODES (exact, uppercase). */
export function isCountryCode(code: string): code is CountryCode {
  return CODES.has(code);
}

const displayNames = new Map<string, Intl.DisplayNames | null>();

/** The Intl.DisplayNames of `locale`, or null where the runtime has none for it. */
function namesIn(locale: string): Intl.DisplayNames | null {
  let names = displayNames.get(locale);
  if (names === undefined) {
    try {
      names = new Intl.DisplayNames([locale], { type: 'region', fallback: 'code' });
    } catch {
      names = null;
    }
    displayNames.set(locale, names);
  }
  return names;
}

/** The name of the country `code` in `locale` (English by default); the code itself when unknown. */
export function countryName(code: string, locale = 'en'): string {
  try {
    return namesIn(locale)?.of(code) ?? code;
  } catch {
    return code;
  }
}

/** The countries for a select: the United States first, then the rest by name in `locale`. */
export function countryOptions(locale = 'en'): { value: CountryCode; label: string }[] {
  const rest = NON_US_COUNTRY_CODES.map((code) => ({
    value: code,
    label: countryName(code, locale),
  }));
  rest.sort((a, b) => a.label.localeCompare(b.label, locale));
  return [{ value: DEFAULT_COUNTRY, label: countryName(DEFAULT_COUNTRY, locale) }, ...rest];
}

/** The parts of an address its last lines are made of. */
interface AddressTail {
  city: string;
  state: string;
  zipCode: string;
  country?: string;
}

/**
 * The lines of an address after the street, in the country's postal order ("Berlin, CA 10117" in
 * the United States, "10117 Berlin" in Germany, the postcode on its own line in the United Kingdom,
 * from the postal formats `localized-address-format` carries), then the country's name outside the
 * United States. A part the country's format leaves out (a Japanese address's city) is kept on a
 * last line, so nothing the shopper typed is dropped.
 */
export function addressTailLines(address: AddressTail, locale = 'en'): string[] {
  const country = address.country || DEFAULT_COUNTRY;
  const lines = formatAddress(
    {
      postalCountry: country,
      locality: address.city,
      administrativeArea: address.state,
      postalCode: address.zipCode,
    },
    'latin',
  ).filter((line) => line.trim() !== '');
  const text = lines.join('\n');
  const left = [address.city, address.state, address.zipCode].filter(
    (part) => part && !text.includes(part),
  );
  if (left.length > 0) lines.push(left.join(' '));
  if (country === DEFAULT_COUNTRY) return lines;
  return [...lines, countryName(country, locale)];
}
