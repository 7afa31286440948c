"""Evidence that a verdict can fail: independent cross-checks of HOLDS (:mod:`.cross_check`) and
planted engine bugs (:mod:`.mutants`) that show which claims notice a wrong engine."""
