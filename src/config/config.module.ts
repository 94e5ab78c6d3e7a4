import { DynamicModule, Global, Module } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from './app-config';
import { SECRET_BOX, SecretBox } from '../common/crypto/secret-box';

@Global()
@Module({})
export class ConfigModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: ConfigModule,
      providers: [
        { provide: APP_CONFIG, useValue: config },
        { provide: SECRET_BOX, useValue: new SecretBox(config.cryptoSecret) },
      ],
      exports: [APP_CONFIG, SECRET_BOX],
    };
  }
}
