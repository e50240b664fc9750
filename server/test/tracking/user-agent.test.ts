import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isMachineAgent, parseUserAgent } from '../../src/core/tracking/user-agent.ts';

/** The user-agent reading behind explorerName/Ver and oSName/Ver, on real clients' strings. */
describe('user agents of opens and clicks', () => {
  const cases: [string, string, string, string, string][] = [
    [
      'Mozilla/5.0 (Linux; Android 13; V2148A Build/TP1A.220624.014; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/116.0.0.0 Mobile Safari/537.36 XWEB/1160065 MMWEBSDK/20231202 MMWEBID/2247 MicroMessenger/8.0.47.2560(0x28002F30) WeChat/arm64 Weixin NetType/WIFI Language/zh_CN ABI/arm64',
      'WeChat',
      '8.0.47.2560',
      'Android',
      '13',
    ],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/94.0.4606.71 Safari/537.36 Core/1.94.225.400 QQBrowser/12.2.5544.400',
      'QQ Browser',
      '12.2.5544.400',
      'Windows',
      '10',
    ],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.2478.80',
      'Edge',
      '124.0.2478.80',
      'Windows',
      '10',
    ],
    [
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 OPR/110.0.0.0',
      'Opera',
      '110.0.0.0',
      'macOS',
      '10.15.7',
    ],
    [
      'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0',
      'Firefox',
      '125.0',
      'Linux',
      '',
    ],
    [
      'Mozilla/5.0 (Windows NT 6.1; Win64; x64; rv:115.0) Gecko/20100101 Thunderbird/115.10.1',
      'Thunderbird',
      '115.10.1',
      'Windows',
      '7',
    ],
    [
      'Mozilla/4.0 (compatible; MSIE 7.0; Windows NT 10.0; Win64; x64; Trident/7.0; .NET4.0C; .NET4.0E; Microsoft Outlook 16.0.17531; ms-office; MSOffice 16)',
      'Outlook',
      '16.0.17531',
      'Windows',
      '10',
    ],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148',
      'Apple Mail',
      '',
      'iOS',
      '17.4.1',
    ],
    [
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
      'Safari',
      '17.4',
      'macOS',
      '14.4',
    ],
  ];

  for (const [ua, name, version, os, osVersion] of cases) {
    it(`reads ${name} on ${os}`, () => {
      assert.deepEqual(parseUserAgent(ua), {
        explorerName: name,
        explorerVer: version,
        oSName: os,
        oSVer: osVersion,
      });
      assert.equal(isMachineAgent(ua), false);
    });
  }

  it('knows image proxies, scanners and scripts as machines', () => {
    for (const ua of [
      'Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)',
      'YahooMailProxy; https://help.yahoo.com/kb/yahoo-mail-proxy-SLN28749.html',
      'Barracuda Sentinel (EE)',
      'python-requests/2.31.0',
      'curl/8.5.0',
      '',
    ]) {
      assert.equal(isMachineAgent(ua), true, ua);
    }
  });
});
