import { Controller, Get, Param, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AuthenticatedRequest, AuthenticatedUser, CriticalRateLimit, CurrentUser, Public } from '../../common/auth/auth.decorators';
import { readCookie } from '../../common/http/cookies';
import { ApiResult } from '../../common/http/envelope';
import { SignedInUserView } from '../auth/auth.service';
import { answerSignInStep } from '../auth/sign-in-answer';
import { SignInChallenges } from '../two-factor/sign-in-challenge';
import type { SecondFactorChallengeView } from '../two-factor/two-factor.wire';
import { EmailBindQueryDto } from '../verification/dto/verification.dto';
import { OAuthCallbackQueryDto, OAuthStateQueryDto, OidcAuthorizeQueryDto, TelegramLoginQueryDto, WeChatCodeQueryDto } from './dto/oauth.dto';
import { OAUTH_BROWSER_COOKIE } from './oauth-state.service';
import { OAuthService, SignInContext, SignInOutcome } from './oauth.service';

const STATE_COOKIE_MAX_AGE_MS = 24 * 3600 * 1000;

/** /api/oauth/*: states, provider callbacks, WeChat and Telegram sign-in, and account bindings. */
@Controller('api/oauth')
export class OAuthController {
  constructor(
    private readonly oauth: OAuthService,
    private readonly challenges: SignInChallenges,
  ) {}

  @Public()
  @Get('state')
  async state(@Query() query: OAuthStateQueryDto, @Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<string> {
    const { state, browser } = await this.oauth.createState(query.aff, readCookie(request.headers.cookie, OAUTH_BROWSER_COOKIE));
    // Lax, not strict: the provider's redirect back to the console is a cross-site navigation.
    response.cookie(OAUTH_BROWSER_COOKIE, browser, { httpOnly: true, sameSite: 'lax', secure: request.secure, path: '/api/oauth', maxAge: STATE_COOKIE_MAX_AGE_MS });
    return state;
  }

  /** Sends the browser to the OpenID provider with PKCE and a nonce for this state. */
  @Public()
  @Get('oidc/authorize')
  async oidcAuthorize(@Query() query: OidcAuthorizeQueryDto, @Req() request: Request, @Res() response: Response): Promise<void> {
    response.redirect(302, await this.oauth.oidcAuthorizationUrl(query.state, request));
  }

  @CriticalRateLimit()
  @Get('email/bind')
  async bindEmail(@CurrentUser() actor: AuthenticatedUser, @Query() query: EmailBindQueryDto): Promise<ApiResult<null>> {
    await this.oauth.bindEmail(actor.id, query.email, query.code);
    return new ApiResult(null, 'email.bound');
  }

  @Public()
  @CriticalRateLimit()
  @Get('wechat')
  async wechat(@Query() query: WeChatCodeQueryDto, @Req() request: AuthenticatedRequest, @Res({ passthrough: true }) response: Response) {
    return answer(await this.oauth.wechatSignIn(query.code, signInContext(request, false)), this.challenges, request, response);
  }

  @CriticalRateLimit()
  @Get('wechat/bind')
  async wechatBind(@Query() query: WeChatCodeQueryDto, @Req() request: AuthenticatedRequest, @Res({ passthrough: true }) response: Response) {
    return answer(await this.oauth.wechatSignIn(query.code, signInContext(request, true)), this.challenges, request, response);
  }

  @Public()
  @CriticalRateLimit()
  @Get('telegram/login')
  async telegram(@Query() query: TelegramLoginQueryDto, @Req() request: AuthenticatedRequest, @Res({ passthrough: true }) response: Response) {
    return answer(await this.oauth.telegramSignIn(query, signInContext(request, false)), this.challenges, request, response);
  }

  @CriticalRateLimit()
  @Get('telegram/bind')
  async telegramBind(@Query() query: TelegramLoginQueryDto, @Req() request: AuthenticatedRequest, @Res({ passthrough: true }) response: Response) {
    return answer(await this.oauth.telegramSignIn(query, signInContext(request, true)), this.challenges, request, response);
  }

  /** The callback of GitHub, OIDC and LinuxDO: signs in, or binds when the caller is signed in. */
  @Public()
  @CriticalRateLimit()
  @Get(':provider')
  async callback(@Param('provider') provider: string, @Query() query: OAuthCallbackQueryDto, @Req() request: AuthenticatedRequest, @Res({ passthrough: true }) response: Response) {
    const context = signInContext(request, request.user !== undefined);
    return answer(await this.oauth.redirectCallback(provider, query, context), this.challenges, request, response);
  }
}

function signInContext(request: AuthenticatedRequest, bind: boolean): SignInContext {
  return {
    request,
    signedInUserId: bind ? request.user?.id : undefined,
    sessionId: request.user?.sessionId,
    stateCookie: readCookie(request.headers.cookie, OAUTH_BROWSER_COOKIE),
  };
}

/** A login sets the session cookie and answers with the user; a binding answers with the message "bind". */
function answer(outcome: SignInOutcome, challenges: SignInChallenges, request: Request, response: Response): ApiResult<SignedInUserView | SecondFactorChallengeView | null> {
  if (outcome.kind === 'bound') return new ApiResult(null, 'oauth.bind');
  return answerSignInStep(outcome, challenges, request, response);
}

