/**
 * @herald/test-peers: loopback stand-ins for the outside parties Herald talks to, each speaking
 * the real protocol so Herald's real clients can be tested end to end. Every peer listens on
 * 127.0.0.1 with an ephemeral port by default and must be closed with `close()`.
 */
export type {
  AlipayNotification,
  AlipayPeer,
  AlipayPeerOptions,
  AlipayPeerTrade,
  AlipayPeerTradeStatus,
} from './alipay-gateway.ts';
export { startAlipayPeer } from './alipay-gateway.ts';
export type {
  CmppBehaviour,
  CmppGateway,
  CmppGatewayOptions,
  CmppLoginAttempt,
  CmppReportSent,
  CmppSubmitted,
} from './cmpp-gateway.ts';
export { startCmppGateway } from './cmpp-gateway.ts';
export type {
  DnsFailure,
  DnsQuery,
  DnsRecordsByType,
  DnsRecordType,
  DnsServer,
  DnsServerOptions,
  MxRecord,
} from './dns-server.ts';
export { startDnsServer } from './dns-server.ts';
export type { Herald, HeraldOptions, LogLine } from './herald-process.ts';
export { startHerald } from './herald-process.ts';
export type { MailHeaders } from './mail-headers.ts';
export type {
  Mm7Behaviour,
  Mm7Part,
  Mm7Relay,
  Mm7RelayOptions,
  SentMm7Report,
  SubmittedMms,
} from './mm7-relay.ts';
export { startMm7Relay } from './mm7-relay.ts';
export type {
  PaypalPeer,
  PaypalPeerOptions,
  PaypalPeerOrder,
  PaypalWebhookDelivery,
} from './paypal-api.ts';
export { startPaypalPeer } from './paypal-api.ts';
export type {
  RtpPacket,
  SipCallBehaviour,
  SipTrunk,
  SipTrunkCall,
  SipTrunkOptions,
} from './sip-trunk.ts';
export { startSipTrunk } from './sip-trunk.ts';
export type {
  SentReceipt,
  SmppBehaviour,
  SmppCarrier,
  SmppCarrierOptions,
  SmppIdFormat,
  SmppReceiptStatus,
  SubmittedSms,
  Udh,
} from './smpp-carrier.ts';
export { startSmppCarrier } from './smpp-carrier.ts';
export { formatReceipt, smscTime } from './smpp-text.ts';
export type { ReceivedMail, SmtpBehaviour, SmtpMx, SmtpMxOptions, SmtpReply } from './smtp-mx.ts';
export { startSmtpMx } from './smtp-mx.ts';
export type { TestTls } from './tls-fixture.ts';
export { TEST_TLS_CERT_PATH, TEST_TLS_KEY_PATH, testTls } from './tls-fixture.ts';
