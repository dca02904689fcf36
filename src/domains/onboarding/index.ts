/** The front door of `onboarding` (docs/architecture.md, "Walls"): what other domains may use. */
export type {
  OnboardingAction,
  OnboardingActionResult,
  OnboardingPageView,
  OnboardingProblem,
  OnboardingService,
  OnboardingSessionObject,
} from './service.ts';
