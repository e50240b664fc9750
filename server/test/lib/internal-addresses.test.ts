import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isRefusedAddress } from '../../src/lib/internal-addresses.ts';

/**
 * The SSRF guard behind webhook URLs and accounts' own relays: every spelling of an internal
 * address is refused, IPv6 forms that carry an IPv4 address included; public addresses pass.
 */
describe('internal addresses', () => {
  it('refuses every form that can reach an internal address', () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '192.168.0.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      '::',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1', // IPv4-mapped
      '::ffff:7f00:1',
      '::127.0.0.1', // IPv4-compatible
      '::7f00:1',
      '::a9fe:a9fe',
      '::ffff:0:127.0.0.1', // IPv4-translated
      '::ffff:0:a00:1',
      '64:ff9b::10.0.0.1', // NAT64
      '64:ff9b:1::a00:1',
      '2002:7f00:1::1', // 6to4 of 127.0.0.1
      '2001:0:4136:e378:8000:63bf:3fff:fdd2', // Teredo
      '0:0:0:0:0:ffff:127.0.0.1',
      '0000:0000:0000:0000:0000:0000:0000:0001',
    ]) {
      assert.ok(isRefusedAddress(address), address);
    }
  });

  it('lets public addresses through, in both families', () => {
    for (const address of [
      '93.184.216.34',
      '::ffff:93.184.216.34',
      '2606:4700::1111',
      '2a00:1450:4001::200e',
    ]) {
      assert.ok(!isRefusedAddress(address), address);
    }
  });
});
