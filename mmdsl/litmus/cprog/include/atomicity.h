/* mmdsl's <atomicity.h>: ATOMIC_BEGIN(); ... ATOMIC_END(); marks a block its author means to be
   atomic (Flanagan and Qadeer's `atomic`), checked by `mmdsl check --atomicity`. Under any other
   C compiler the two macros expand to nothing, so an annotated program still compiles and runs. */
#ifndef MMDSL_ATOMICITY_H
#define MMDSL_ATOMICITY_H
#ifdef __mmdsl__
void ATOMIC_BEGIN(void); /* recognised by name by mmdsl's front end */
void ATOMIC_END(void);
void MOVER_BEGIN(void); /* a block every step of which commutes with every other thread's */
void MOVER_END(void);
#else
#define ATOMIC_BEGIN() ((void)0)
#define ATOMIC_END() ((void)0)
#define MOVER_BEGIN() ((void)0)
#define MOVER_END() ((void)0)
#endif
#endif
