import type { PublicGroup, PublicScreen } from './route-types.ts';

/**
 * Routes anyone may open (console-spec §2): the site itself, the account pages of the /user group,
 * the front site of the /frontWeb group and the activity pages. The /user and /frontWeb groups
 * have absolute child paths (a 401 sends the visitor to /login, not /user/login); the groups'
 * own paths redirect (see routes.ts). `todo(…)` marks a placeholder screen, `screen(…)` a built one.
 */
function screen(
  group: PublicGroup,
  path: string,
  titleKey: PublicScreen['titleKey'],
  page: string,
): PublicScreen {
  return { group, path, titleKey, page };
}

function todo(
  group: PublicGroup,
  path: string,
  titleKey: PublicScreen['titleKey'],
  page: string,
): PublicScreen {
  return { ...screen(group, path, titleKey, page), placeholder: true };
}

export const publicScreens: readonly PublicScreen[] = [
  screen('site', '/', 'home.pageTitle', 'home/HomePage'),
  screen('site', '/404', 'notFound.pageTitle', 'errors/NotFoundPage'),
  // Not in §2: the service agreement and privacy policy that sign-up asks to accept.
  screen('site', '/terms', 'routes.terms', 'legal/TermsPage'),
  screen('site', '/privacy', 'routes.privacy', 'legal/PrivacyPage'),
  screen('site', '/preview', 'routes.subscriptionPreview', 'subscription/SubscriptionPreviewPage'),
  screen('site', '/subscriptionInvite', 'routes.subscriptionInvite', 'subscription/SubscriptionInvitePage'),
  todo('user', '/transfer', 'routes.transfer', 'user/TransferPage'),
  screen('user', '/login', 'routes.login', 'user/LoginPage'),
  todo('user', '/accountAuth', 'routes.accountAuth', 'user/AccountAuthPage'),
  todo('user', '/accountAuthTip', 'routes.accountAuthTip', 'user/AccountAuthTipPage'),
  screen('user', '/wxLoginCheck', 'routes.wxLoginCheck', 'user/WxLoginCheckPage'),
  screen('user', '/wxbind', 'routes.wxBind', 'user/WxBindPage'),
  screen('user', '/register', 'routes.register', 'user/RegisterPage'),
  screen('user', '/activate', 'routes.activate', 'user/ActivatePage'),
  todo('user', '/resetEmail', 'routes.resetEmail', 'user/ResetEmailPage'),
  screen('user', '/activateSuccess', 'routes.activateSuccess', 'user/ActivateSuccessPage'),
  screen('user', '/productSelect', 'routes.productSelect', 'user/ProductSelectPage'),
  screen('user', '/activateFailed', 'routes.activateFailed', 'user/ActivateFailedPage'),
  screen('user', '/reset', 'routes.reset', 'user/ResetPage'),
  screen('user', '/resetPassword', 'routes.resetPassword', 'user/ResetPasswordPage'),
  screen('user', '/resetSuccess', 'routes.resetSuccess', 'user/ResetSuccessPage'),
  screen('user', '/resetFailed', 'routes.resetFailed', 'user/ResetFailedPage'),
  screen('user', '/loginProtect', 'routes.loginProtect', 'user/LoginProtectPage'),
  screen('user', '/access/member/invite', 'routes.memberInvite', 'user/MemberInvitePage'),
  screen('frontWeb', '/home', 'home.pageTitle', 'home/HomePage'),
  todo('frontWeb', '/prices', 'routes.prices', 'front-web/PricesPage'),
  todo('frontWeb', '/aboutUs', 'routes.aboutUs', 'front-web/AboutUsPage'),
  todo('frontWeb', '/friendlyLink', 'routes.friendlyLink', 'front-web/FriendlyLinksPage'),
  todo('frontWeb', '/sendService', 'routes.sendService', 'front-web/SendServicePage'),
  todo('frontWeb', '/feedbackTrack', 'routes.feedbackTrack', 'front-web/FeedbackTrackPage'),
  todo('frontWeb', '/dedicatedIp', 'routes.dedicatedIp', 'front-web/DedicatedIpPage'),
  todo('frontWeb', '/home-oversea', 'routes.homeOversea', 'front-web/OverseaEmailPage'),
  todo('frontWeb', '/chineseSms', 'routes.chineseSms', 'front-web/ChineseSmsPage'),
  screen('frontWeb', '/InternationalSms', 'routes.internationalSms', 'front-web/InternationalSmsPage'),
  todo('frontWeb', '/voiceSms', 'routes.voiceSms', 'front-web/VoiceSmsPage'),
  todo('frontWeb', '/mediaSms', 'routes.mediaSms', 'front-web/MediaSmsPage'),
  todo('frontWeb', '/support', 'routes.support', 'front-web/SupportPage'),
  todo('frontWeb', '/hospital', 'routes.hospital', 'front-web/HospitalPage'),
  todo('frontWeb', '/home-sign', 'routes.homeSign', 'front-web/SignSolutionPage'),
  todo('activity', '/activity/prize', 'routes.activityPrize', 'activity/PrizeDrawPage'),
  todo('activity', '/activity/11', 'routes.activity11', 'activity/Anniversary11Page'),
  todo('activity', '/activity/getPrize', 'routes.activityGetPrize', 'activity/GetPrizePage'),
  todo('activity', '/activity/12', 'routes.activity12', 'activity/Anniversary12Page'),
  screen('diagnostics', '/diagnostics/http', 'routes.httpDiagnostics', 'diagnostics/HttpDiagnosticsPage'),
];
