import { Body, Controller, Get, Post, Query, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { AllowedBeforeTwoFactorEnrolment, AuthenticatedRequest, CriticalRateLimit, Public, RootOnly } from '../../common/auth/auth.decorators';
import { UnauthorizedError } from '../../common/errors/app-error';
import { ApiDoc } from '../../common/http/query-docs';
import { SignedInUserView } from '../auth/auth.service';
import { sessionClient } from '../sessions/session-cookie';
import { SignInChallenges } from '../two-factor/sign-in-challenge';
import { SamlAcsDto, SamlLoginQueryDto } from './dto/saml.dto';
import { landingAfterSignIn, landingForFailure } from './saml-landing';
import { SamlService } from './saml.service';
import type { SamlSettingsView } from './saml.wire';

const SAML_METADATA_TYPE = 'application/samlmetadata+xml';

/**
 * /api/saml/*: SP metadata, the login redirect, the ACS, and the settings page's check. The
 * login and the ACS are browser navigations, so they answer with redirects to console pages
 * (which show any refusal), not with the JSON envelope.
 */
@Controller('api/saml')
export class SamlController {
  constructor(
    private readonly saml: SamlService,
    private readonly challenges: SignInChallenges,
  ) {}

  /** The SP metadata to import at the IdP; its address is also our entity id. */
  @Public()
  @Get('metadata')
  @ApiDoc(({ ApiProduces }) => ApiProduces(SAML_METADATA_TYPE))
  async metadata(@Res() response: Response): Promise<void> {
    response.type(SAML_METADATA_TYPE).send(await this.saml.metadataXml());
  }

  @Public()
  @CriticalRateLimit()
  @Get('login')
  async login(@Query() query: SamlLoginQueryDto, @Res() response: Response): Promise<void> {
    const target = await this.saml.loginUrl(query.aff).catch(landingForFailure);
    response.redirect(302, target);
  }

  @Public()
  @CriticalRateLimit()
  @Post('acs')
  async acs(@Body() body: SamlAcsDto, @Req() request: AuthenticatedRequest, @Res() response: Response): Promise<void> {
    const client = { ...sessionClient(request), previousSessionId: request.user?.sessionId };
    const target = await this.saml
      .signIn(body.SAMLResponse, body.RelayState, client)
      .then((step) => landingAfterSignIn(step, this.challenges, request, response))
      .catch(landingForFailure);
    // 303: the browser follows a POST's answer with a GET.
    response.redirect(303, target);
  }

  /** The console's SAML landing page: who the session the ACS started belongs to. */
  @Public()
  @AllowedBeforeTwoFactorEnrolment()
  @Get('session')
  session(@Req() request: AuthenticatedRequest): Promise<SignedInUserView> {
    if (!request.user?.sessionId) throw new UnauthorizedError();
    return this.saml.signedInView(request.user.id);
  }

  @RootOnly()
  @Get('settings')
  settings(): Promise<SamlSettingsView> {
    return this.saml.settingsView();
  }
}
