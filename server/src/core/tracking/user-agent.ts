/**
 * What an open or click's user agent says: the browser or mail client and the operating system,
 * as SendCloud's webhook fields name them (explorerName/Ver, oSName/Ver), and whether the hit
 * came from a machine (an image proxy, a link scanner, a script) rather than a person.
 *
 * A small table of patterns, tried in order: the first that matches wins, so the specific ones
 * (WeChat, QQ browser, Edge, Opera put their own token next to "Chrome" and "Safari") come first.
 */
export interface UserAgentInfo {
  explorerName: string;
  explorerVer: string;
  oSName: string;
  oSVer: string;
}

const BROWSERS: [name: string, pattern: RegExp][] = [
  ['WeChat', /MicroMessenger\/([\d.]+)/],
  ['QQ Browser', /M?QQBrowser\/([\d.]+)/],
  [
    'Outlook',
    /Microsoft Outlook[ /]?([\d.]+)?|Outlook-(?:iOS|Android)\/?([\d.]+)?|\bms-office\b|MSOffice ([\d.]+)/,
  ],
  ['Thunderbird', /Thunderbird\/([\d.]+)/],
  ['Edge', /Edg(?:e|A|iOS)?\/([\d.]+)/],
  ['Opera', /OPR\/([\d.]+)|Opera\/.*Version\/([\d.]+)|Opera[/ ]([\d.]+)/],
  ['Firefox', /(?:Firefox|FxiOS)\/([\d.]+)/],
  ['Chrome', /(?:Chrome|CriOS)\/([\d.]+)/],
  ['Safari', /Version\/([\d.]+).*Safari\//],
  // Apple Mail (macOS and iOS) loads images with WebKit's UA and no browser token.
  ['Apple Mail', /AppleWebKit\/[\d.]+ \(KHTML, like Gecko\)(?: Mobile\/\w+)?$/],
];

const WINDOWS_VERSIONS: Record<string, string> = {
  '10.0': '10',
  '6.3': '8.1',
  '6.2': '8',
  '6.1': '7',
  '6.0': 'Vista',
  '5.1': 'XP',
};

function system(ua: string): { oSName: string; oSVer: string } {
  let m = /Windows NT ([\d.]+)/.exec(ua);
  if (m) return { oSName: 'Windows', oSVer: WINDOWS_VERSIONS[m[1] ?? ''] ?? m[1] ?? '' };
  // iOS says "like Mac OS X", so it is tried before macOS.
  m = /(?:iPhone|iPad|iPod).*? OS (\d+(?:_\d+)*)/.exec(ua);
  if (m) return { oSName: 'iOS', oSVer: (m[1] ?? '').replace(/_/g, '.') };
  m = /Android[ /]?([\d.]+)?/.exec(ua);
  if (m) return { oSName: 'Android', oSVer: m[1] ?? '' };
  m = /Mac OS X (\d+(?:[_.]\d+)*)/.exec(ua);
  if (m) return { oSName: 'macOS', oSVer: (m[1] ?? '').replace(/_/g, '.') };
  if (/Macintosh|Mac OS/.test(ua)) return { oSName: 'macOS', oSVer: '' };
  if (/Linux|X11|CrOS/.test(ua)) return { oSName: 'Linux', oSVer: '' };
  return { oSName: 'Other', oSVer: '' };
}

export function parseUserAgent(ua: string): UserAgentInfo {
  const text = ua.trim();
  let explorerName = 'Other';
  let explorerVer = '';
  for (const [name, pattern] of BROWSERS) {
    const m = pattern.exec(text);
    if (m) {
      explorerName = name;
      explorerVer = m.slice(1).find((v) => v !== undefined) ?? '';
      break;
    }
  }
  return { explorerName, explorerVer, ...system(text) };
}

/**
 * Machines that fetch images or follow links on their own: mail providers' image proxies (they
 * fetch on delivery or on behalf of many readers), security scanners and link previewers, plain
 * HTTP libraries. An empty user agent is a machine too.
 */
const MACHINES =
  /GoogleImageProxy|ggpht\.com|YahooMailProxy|Yahoo! Slurp|Barracuda|Mimecast|Proofpoint|Symantec|TrendMicro|Trend Micro|FireEye|Forcepoint|SafeLinks|Cisco|Sophos|Fortinet|MessageLabs|bot\b|crawler|spider|preview|HeadlessChrome|python-requests|python-urllib|aiohttp|curl\/|Wget|Go-http-client|okhttp|Java\/|libwww|node-fetch|undici|axios|facebookexternalhit|WhatsApp|Slackbot|TelegramBot|Discordbot|SkypeUriPreview/i;

export function isMachineAgent(ua: string): boolean {
  return ua.trim() === '' || MACHINES.test(ua);
}
