/*
 * otf2copy: read an OTF2 archive with the reference OTF2 library and write it
 * again with the library's writers (or, with --read-only, only read it).
 *
 * It is the yardstick of bench/run.sh: clc-correct's OTF2 -> OTF2 run is
 * measured against what the reference library needs for a plain read and
 * rewrite of the same archive. It is a benchmark program, not part of clc.
 *
 *   otf2copy [--quiet] [--no-local-defs] INPUT OUTDIR
 *   otf2copy [--quiet] --read-only INPUT
 *
 * INPUT is an archive's anchor file (.../traces.otf2) or the directory holding
 * it. OUTDIR must not exist or be empty; the copy is OUTDIR/traces.otf2,
 * OUTDIR/traces.def and OUTDIR/traces/. With --read-only no OUTDIR is given
 * and nothing is written.
 *
 * Reading: OTF2_Reader with the serial collective callbacks; the global
 * definitions, then location by location in the order of the global Location
 * definitions, its local definitions (OTF2_DefReader) and all its events
 * (OTF2_EvtReader, ReadAllLocalEvents). The event reader applies the local
 * mapping tables and the clock offsets, as the library does by default, so
 * the events arrive with global ids and synchronised times.
 *
 * Writing: OTF2_Archive in write mode, the library's default chunk sizes
 * (OTF2_CHUNK_SIZE_EVENTS_DEFAULT, OTF2_CHUNK_SIZE_DEFINITIONS_DEFAULT), POSIX
 * substrate, no compression; a pre-flush callback that always flushes (event
 * writers keep everything in memory otherwise) and no post-flush callback (it
 * would add BufferFlush records the input does not have). Every event record
 * of OTF2 3.0 (the 78 types of OTF2_EvtReaderCallbacks.h, attribute lists
 * included) is written as it was read, one location at a time, so memory does
 * not grow with the archive. Event records of unknown types cannot be written
 * with the library's API: they are counted and make the run fail.
 *
 * Definitions: every global definition record type of OTF2 3.0 (the 38 of
 * OTF2_GlobalDefReaderCallbacks.h) is copied, after the events, with two
 * changes: ClockProperties gets the globalOffset and traceLength of the events
 * as written (their times have the clock offsets applied), realtimeTimestamp
 * moved with globalOffset; Location gets the number of events written. Local
 * MappingTable and ClockOffset records are consumed by the reader (the events
 * are written mapped and synchronised), so they are not copied; any other
 * local definition is copied as it is into the location's local definitions.
 * Every location gets a local definition file, empty when there is nothing
 * to copy, as Score-P writes them and the library's reader expects them (it
 * reports a missing one as an error, and goes on). With --no-local-defs only
 * locations with records to copy get one: each local definition writer costs
 * a definition chunk (4 MiB by default) that the library clears, which
 * dominates the copy of archives with many small locations.
 * The anchor's creator, description, machine name and properties are copied.
 *
 * Exit status 0 on success, 1 on any error (the library's message and ours on
 * stderr; what was written of OUTDIR stays, this being a benchmark program). On success a one-line summary goes to stderr unless --quiet.
 *
 * The record lists below (EVENT_RECORDS, DEFINITION_RECORDS, ...) give each
 * record's name and the parameters that its reader callback passes and its
 * writer takes, in the order of the OTF2 3.0 headers. Each list starts with a
 * comma so that records without parameters work: X(name, (, type param, ...),
 * (, param, ...)).
 */

#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <otf2/otf2.h>

/* Callsite definitions are deprecated in OTF2 3.0, but still records to copy. */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

#define UNPAREN(...) __VA_ARGS__

/* Every event record type of OTF2 3.0. */
#define EVENT_RECORDS                                                                           \
    X(BufferFlush, (, OTF2_TimeStamp stopTime), (, stopTime))                                   \
    X(MeasurementOnOff, (, OTF2_MeasurementMode measurementMode), (, measurementMode))          \
    X(Enter, (, OTF2_RegionRef region), (, region))                                             \
    X(Leave, (, OTF2_RegionRef region), (, region))                                             \
    X(MpiSend, (, uint32_t receiver, OTF2_CommRef communicator, uint32_t msgTag,                \
                uint64_t msgLength),                                                            \
      (, receiver, communicator, msgTag, msgLength))                                            \
    X(MpiIsend, (, uint32_t receiver, OTF2_CommRef communicator, uint32_t msgTag,               \
                 uint64_t msgLength, uint64_t requestID),                                       \
      (, receiver, communicator, msgTag, msgLength, requestID))                                 \
    X(MpiIsendComplete, (, uint64_t requestID), (, requestID))                                  \
    X(MpiIrecvRequest, (, uint64_t requestID), (, requestID))                                   \
    X(MpiRecv, (, uint32_t sender, OTF2_CommRef communicator, uint32_t msgTag,                  \
                uint64_t msgLength),                                                            \
      (, sender, communicator, msgTag, msgLength))                                              \
    X(MpiIrecv, (, uint32_t sender, OTF2_CommRef communicator, uint32_t msgTag,                 \
                 uint64_t msgLength, uint64_t requestID),                                       \
      (, sender, communicator, msgTag, msgLength, requestID))                                   \
    X(MpiRequestTest, (, uint64_t requestID), (, requestID))                                    \
    X(MpiRequestCancelled, (, uint64_t requestID), (, requestID))                               \
    X(MpiCollectiveBegin, (), ())                                                               \
    X(MpiCollectiveEnd, (, OTF2_CollectiveOp collectiveOp, OTF2_CommRef communicator,           \
                         uint32_t root, uint64_t sizeSent, uint64_t sizeReceived),              \
      (, collectiveOp, communicator, root, sizeSent, sizeReceived))                             \
    X(OmpFork, (, uint32_t numberOfRequestedThreads), (, numberOfRequestedThreads))             \
    X(OmpJoin, (), ())                                                                          \
    X(OmpAcquireLock, (, uint32_t lockID, uint32_t acquisitionOrder),                           \
      (, lockID, acquisitionOrder))                                                             \
    X(OmpReleaseLock, (, uint32_t lockID, uint32_t acquisitionOrder),                           \
      (, lockID, acquisitionOrder))                                                             \
    X(OmpTaskCreate, (, uint64_t taskID), (, taskID))                                           \
    X(OmpTaskSwitch, (, uint64_t taskID), (, taskID))                                           \
    X(OmpTaskComplete, (, uint64_t taskID), (, taskID))                                         \
    X(Metric, (, OTF2_MetricRef metric, uint8_t numberOfMetrics, const OTF2_Type* typeIDs,      \
               const OTF2_MetricValue* metricValues),                                           \
      (, metric, numberOfMetrics, typeIDs, metricValues))                                       \
    X(ParameterString, (, OTF2_ParameterRef parameter, OTF2_StringRef string),                  \
      (, parameter, string))                                                                    \
    X(ParameterInt, (, OTF2_ParameterRef parameter, int64_t value), (, parameter, value))       \
    X(ParameterUnsignedInt, (, OTF2_ParameterRef parameter, uint64_t value),                    \
      (, parameter, value))                                                                     \
    X(RmaWinCreate, (, OTF2_RmaWinRef win), (, win))                                            \
    X(RmaWinDestroy, (, OTF2_RmaWinRef win), (, win))                                           \
    X(RmaCollectiveBegin, (), ())                                                               \
    X(RmaCollectiveEnd, (, OTF2_CollectiveOp collectiveOp, OTF2_RmaSyncLevel syncLevel,         \
                         OTF2_RmaWinRef win, uint32_t root, uint64_t bytesSent,                 \
                         uint64_t bytesReceived),                                               \
      (, collectiveOp, syncLevel, win, root, bytesSent, bytesReceived))                         \
    X(RmaGroupSync, (, OTF2_RmaSyncLevel syncLevel, OTF2_RmaWinRef win, OTF2_GroupRef group),   \
      (, syncLevel, win, group))                                                                \
    X(RmaRequestLock, (, OTF2_RmaWinRef win, uint32_t remote, uint64_t lockId,                  \
                       OTF2_LockType lockType),                                                 \
      (, win, remote, lockId, lockType))                                                        \
    X(RmaAcquireLock, (, OTF2_RmaWinRef win, uint32_t remote, uint64_t lockId,                  \
                       OTF2_LockType lockType),                                                 \
      (, win, remote, lockId, lockType))                                                        \
    X(RmaTryLock, (, OTF2_RmaWinRef win, uint32_t remote, uint64_t lockId,                      \
                   OTF2_LockType lockType),                                                     \
      (, win, remote, lockId, lockType))                                                        \
    X(RmaReleaseLock, (, OTF2_RmaWinRef win, uint32_t remote, uint64_t lockId),                 \
      (, win, remote, lockId))                                                                  \
    X(RmaSync, (, OTF2_RmaWinRef win, uint32_t remote, OTF2_RmaSyncType syncType),              \
      (, win, remote, syncType))                                                                \
    X(RmaWaitChange, (, OTF2_RmaWinRef win), (, win))                                           \
    X(RmaPut, (, OTF2_RmaWinRef win, uint32_t remote, uint64_t bytes, uint64_t matchingId),     \
      (, win, remote, bytes, matchingId))                                                       \
    X(RmaGet, (, OTF2_RmaWinRef win, uint32_t remote, uint64_t bytes, uint64_t matchingId),     \
      (, win, remote, bytes, matchingId))                                                       \
    X(RmaAtomic, (, OTF2_RmaWinRef win, uint32_t remote, OTF2_RmaAtomicType type,               \
                  uint64_t bytesSent, uint64_t bytesReceived, uint64_t matchingId),             \
      (, win, remote, type, bytesSent, bytesReceived, matchingId))                              \
    X(RmaOpCompleteBlocking, (, OTF2_RmaWinRef win, uint64_t matchingId), (, win, matchingId))  \
    X(RmaOpCompleteNonBlocking, (, OTF2_RmaWinRef win, uint64_t matchingId),                    \
      (, win, matchingId))                                                                      \
    X(RmaOpTest, (, OTF2_RmaWinRef win, uint64_t matchingId), (, win, matchingId))              \
    X(RmaOpCompleteRemote, (, OTF2_RmaWinRef win, uint64_t matchingId), (, win, matchingId))    \
    X(ThreadFork, (, OTF2_Paradigm model, uint32_t numberOfRequestedThreads),                   \
      (, model, numberOfRequestedThreads))                                                      \
    X(ThreadJoin, (, OTF2_Paradigm model), (, model))                                           \
    X(ThreadTeamBegin, (, OTF2_CommRef threadTeam), (, threadTeam))                             \
    X(ThreadTeamEnd, (, OTF2_CommRef threadTeam), (, threadTeam))                               \
    X(ThreadAcquireLock, (, OTF2_Paradigm model, uint32_t lockID, uint32_t acquisitionOrder),   \
      (, model, lockID, acquisitionOrder))                                                      \
    X(ThreadReleaseLock, (, OTF2_Paradigm model, uint32_t lockID, uint32_t acquisitionOrder),   \
      (, model, lockID, acquisitionOrder))                                                      \
    X(ThreadTaskCreate, (, OTF2_CommRef threadTeam, uint32_t creatingThread,                    \
                         uint32_t generationNumber),                                            \
      (, threadTeam, creatingThread, generationNumber))                                         \
    X(ThreadTaskSwitch, (, OTF2_CommRef threadTeam, uint32_t creatingThread,                    \
                         uint32_t generationNumber),                                            \
      (, threadTeam, creatingThread, generationNumber))                                         \
    X(ThreadTaskComplete, (, OTF2_CommRef threadTeam, uint32_t creatingThread,                  \
                           uint32_t generationNumber),                                          \
      (, threadTeam, creatingThread, generationNumber))                                         \
    X(ThreadCreate, (, OTF2_CommRef threadContingent, uint64_t sequenceCount),                  \
      (, threadContingent, sequenceCount))                                                      \
    X(ThreadBegin, (, OTF2_CommRef threadContingent, uint64_t sequenceCount),                   \
      (, threadContingent, sequenceCount))                                                      \
    X(ThreadWait, (, OTF2_CommRef threadContingent, uint64_t sequenceCount),                    \
      (, threadContingent, sequenceCount))                                                      \
    X(ThreadEnd, (, OTF2_CommRef threadContingent, uint64_t sequenceCount),                     \
      (, threadContingent, sequenceCount))                                                      \
    X(CallingContextEnter, (, OTF2_CallingContextRef callingContext, uint32_t unwindDistance),  \
      (, callingContext, unwindDistance))                                                       \
    X(CallingContextLeave, (, OTF2_CallingContextRef callingContext), (, callingContext))       \
    X(CallingContextSample, (, OTF2_CallingContextRef callingContext, uint32_t unwindDistance,  \
                             OTF2_InterruptGeneratorRef interruptGenerator),                    \
      (, callingContext, unwindDistance, interruptGenerator))                                   \
    X(IoCreateHandle, (, OTF2_IoHandleRef handle, OTF2_IoAccessMode mode,                       \
                       OTF2_IoCreationFlag creationFlags, OTF2_IoStatusFlag statusFlags),       \
      (, handle, mode, creationFlags, statusFlags))                                             \
    X(IoDestroyHandle, (, OTF2_IoHandleRef handle), (, handle))                                 \
    X(IoDuplicateHandle, (, OTF2_IoHandleRef oldHandle, OTF2_IoHandleRef newHandle,             \
                          OTF2_IoStatusFlag statusFlags),                                       \
      (, oldHandle, newHandle, statusFlags))                                                    \
    X(IoSeek, (, OTF2_IoHandleRef handle, int64_t offsetRequest, OTF2_IoSeekOption whence,      \
               uint64_t offsetResult),                                                          \
      (, handle, offsetRequest, whence, offsetResult))                                          \
    X(IoChangeStatusFlags, (, OTF2_IoHandleRef handle, OTF2_IoStatusFlag statusFlags),          \
      (, handle, statusFlags))                                                                  \
    X(IoDeleteFile, (, OTF2_IoParadigmRef ioParadigm, OTF2_IoFileRef file),                     \
      (, ioParadigm, file))                                                                     \
    X(IoOperationBegin, (, OTF2_IoHandleRef handle, OTF2_IoOperationMode mode,                  \
                         OTF2_IoOperationFlag operationFlags, uint64_t bytesRequest,            \
                         uint64_t matchingId),                                                  \
      (, handle, mode, operationFlags, bytesRequest, matchingId))                               \
    X(IoOperationTest, (, OTF2_IoHandleRef handle, uint64_t matchingId),                        \
      (, handle, matchingId))                                                                   \
    X(IoOperationIssued, (, OTF2_IoHandleRef handle, uint64_t matchingId),                      \
      (, handle, matchingId))                                                                   \
    X(IoOperationComplete, (, OTF2_IoHandleRef handle, uint64_t bytesResult,                    \
                            uint64_t matchingId),                                               \
      (, handle, bytesResult, matchingId))                                                      \
    X(IoOperationCancelled, (, OTF2_IoHandleRef handle, uint64_t matchingId),                   \
      (, handle, matchingId))                                                                   \
    X(IoAcquireLock, (, OTF2_IoHandleRef handle, OTF2_LockType lockType),                       \
      (, handle, lockType))                                                                     \
    X(IoReleaseLock, (, OTF2_IoHandleRef handle, OTF2_LockType lockType),                       \
      (, handle, lockType))                                                                     \
    X(IoTryLock, (, OTF2_IoHandleRef handle, OTF2_LockType lockType), (, handle, lockType))     \
    X(ProgramBegin, (, OTF2_StringRef programName, uint32_t numberOfArguments,                  \
                     const OTF2_StringRef* programArguments),                                   \
      (, programName, numberOfArguments, programArguments))                                     \
    X(ProgramEnd, (, int64_t exitStatus), (, exitStatus))                                       \
    X(NonBlockingCollectiveRequest, (, uint64_t requestID), (, requestID))                      \
    X(NonBlockingCollectiveComplete, (, OTF2_CollectiveOp collectiveOp,                         \
                                      OTF2_CommRef communicator, uint32_t root,                 \
                                      uint64_t sizeSent, uint64_t sizeReceived,                 \
                                      uint64_t requestID),                                      \
      (, collectiveOp, communicator, root, sizeSent, sizeReceived, requestID))                  \
    X(CommCreate, (, OTF2_CommRef communicator), (, communicator))                              \
    X(CommDestroy, (, OTF2_CommRef communicator), (, communicator))

/* Definition record types that are both global and local definitions. */
#define DEFINITION_RECORDS                                                                      \
    X(String, (, OTF2_StringRef self, const char* string), (, self, string))                    \
    X(Attribute, (, OTF2_AttributeRef self, OTF2_StringRef name, OTF2_StringRef description,    \
                  OTF2_Type type),                                                              \
      (, self, name, description, type))                                                        \
    X(SystemTreeNode, (, OTF2_SystemTreeNodeRef self, OTF2_StringRef name,                      \
                       OTF2_StringRef className, OTF2_SystemTreeNodeRef parent),                \
      (, self, name, className, parent))                                                        \
    X(LocationGroup, (, OTF2_LocationGroupRef self, OTF2_StringRef name,                        \
                      OTF2_LocationGroupType locationGroupType,                                 \
                      OTF2_SystemTreeNodeRef systemTreeParent,                                  \
                      OTF2_LocationGroupRef creatingLocationGroup),                             \
      (, self, name, locationGroupType, systemTreeParent, creatingLocationGroup))               \
    X(Region, (, OTF2_RegionRef self, OTF2_StringRef name, OTF2_StringRef canonicalName,        \
               OTF2_StringRef description, OTF2_RegionRole regionRole, OTF2_Paradigm paradigm,  \
               OTF2_RegionFlag regionFlags, OTF2_StringRef sourceFile,                          \
               uint32_t beginLineNumber, uint32_t endLineNumber),                               \
      (, self, name, canonicalName, description, regionRole, paradigm, regionFlags,             \
       sourceFile, beginLineNumber, endLineNumber))                                             \
    X(Callsite, (, OTF2_CallsiteRef self, OTF2_StringRef sourceFile, uint32_t lineNumber,       \
                 OTF2_RegionRef enteredRegion, OTF2_RegionRef leftRegion),                      \
      (, self, sourceFile, lineNumber, enteredRegion, leftRegion))                              \
    X(Callpath, (, OTF2_CallpathRef self, OTF2_CallpathRef parent, OTF2_RegionRef region),      \
      (, self, parent, region))                                                                 \
    X(Group, (, OTF2_GroupRef self, OTF2_StringRef name, OTF2_GroupType groupType,              \
              OTF2_Paradigm paradigm, OTF2_GroupFlag groupFlags, uint32_t numberOfMembers,      \
              const uint64_t* members),                                                         \
      (, self, name, groupType, paradigm, groupFlags, numberOfMembers, members))                \
    X(MetricMember, (, OTF2_MetricMemberRef self, OTF2_StringRef name,                          \
                     OTF2_StringRef description, OTF2_MetricType metricType,                    \
                     OTF2_MetricMode metricMode, OTF2_Type valueType, OTF2_Base base,           \
                     int64_t exponent, OTF2_StringRef unit),                                    \
      (, self, name, description, metricType, metricMode, valueType, base, exponent, unit))     \
    X(MetricClass, (, OTF2_MetricRef self, uint8_t numberOfMetrics,                             \
                    const OTF2_MetricMemberRef* metricMembers,                                  \
                    OTF2_MetricOccurrence metricOccurrence, OTF2_RecorderKind recorderKind),    \
      (, self, numberOfMetrics, metricMembers, metricOccurrence, recorderKind))                 \
    X(MetricInstance, (, OTF2_MetricRef self, OTF2_MetricRef metricClass,                       \
                       OTF2_LocationRef recorder, OTF2_MetricScope metricScope, uint64_t scope),\
      (, self, metricClass, recorder, metricScope, scope))                                      \
    X(Comm, (, OTF2_CommRef self, OTF2_StringRef name, OTF2_GroupRef group,                     \
             OTF2_CommRef parent, OTF2_CommFlag flags),                                         \
      (, self, name, group, parent, flags))                                                     \
    X(Parameter, (, OTF2_ParameterRef self, OTF2_StringRef name,                                \
                  OTF2_ParameterType parameterType),                                            \
      (, self, name, parameterType))                                                            \
    X(RmaWin, (, OTF2_RmaWinRef self, OTF2_StringRef name, OTF2_CommRef comm,                   \
               OTF2_RmaWinFlag flags),                                                          \
      (, self, name, comm, flags))                                                              \
    X(MetricClassRecorder, (, OTF2_MetricRef metric, OTF2_LocationRef recorder),                \
      (, metric, recorder))                                                                     \
    X(SystemTreeNodeProperty, (, OTF2_SystemTreeNodeRef systemTreeNode, OTF2_StringRef name,    \
                               OTF2_Type type, OTF2_AttributeValue value),                      \
      (, systemTreeNode, name, type, value))                                                    \
    X(SystemTreeNodeDomain, (, OTF2_SystemTreeNodeRef systemTreeNode,                           \
                             OTF2_SystemTreeDomain systemTreeDomain),                           \
      (, systemTreeNode, systemTreeDomain))                                                     \
    X(LocationGroupProperty, (, OTF2_LocationGroupRef locationGroup, OTF2_StringRef name,       \
                              OTF2_Type type, OTF2_AttributeValue value),                       \
      (, locationGroup, name, type, value))                                                     \
    X(LocationProperty, (, OTF2_LocationRef location, OTF2_StringRef name, OTF2_Type type,      \
                         OTF2_AttributeValue value),                                            \
      (, location, name, type, value))                                                          \
    X(CartDimension, (, OTF2_CartDimensionRef self, OTF2_StringRef name, uint32_t size,         \
                      OTF2_CartPeriodicity cartPeriodicity),                                    \
      (, self, name, size, cartPeriodicity))                                                    \
    X(CartTopology, (, OTF2_CartTopologyRef self, OTF2_StringRef name,                          \
                     OTF2_CommRef communicator, uint8_t numberOfDimensions,                     \
                     const OTF2_CartDimensionRef* cartDimensions),                              \
      (, self, name, communicator, numberOfDimensions, cartDimensions))                         \
    X(CartCoordinate, (, OTF2_CartTopologyRef cartTopology, uint32_t rank,                      \
                       uint8_t numberOfDimensions, const uint32_t* coordinates),                \
      (, cartTopology, rank, numberOfDimensions, coordinates))                                  \
    X(SourceCodeLocation, (, OTF2_SourceCodeLocationRef self, OTF2_StringRef file,              \
                           uint32_t lineNumber),                                                \
      (, self, file, lineNumber))                                                               \
    X(CallingContext, (, OTF2_CallingContextRef self, OTF2_RegionRef region,                    \
                       OTF2_SourceCodeLocationRef sourceCodeLocation,                           \
                       OTF2_CallingContextRef parent),                                          \
      (, self, region, sourceCodeLocation, parent))                                             \
    X(CallingContextProperty, (, OTF2_CallingContextRef callingContext, OTF2_StringRef name,    \
                               OTF2_Type type, OTF2_AttributeValue value),                      \
      (, callingContext, name, type, value))                                                    \
    X(InterruptGenerator, (, OTF2_InterruptGeneratorRef self, OTF2_StringRef name,              \
                           OTF2_InterruptGeneratorMode interruptGeneratorMode, OTF2_Base base,  \
                           int64_t exponent, uint64_t period),                                  \
      (, self, name, interruptGeneratorMode, base, exponent, period))                           \
    X(IoFileProperty, (, OTF2_IoFileRef ioFile, OTF2_StringRef name, OTF2_Type type,            \
                       OTF2_AttributeValue value),                                              \
      (, ioFile, name, type, value))                                                            \
    X(IoRegularFile, (, OTF2_IoFileRef self, OTF2_StringRef name, OTF2_SystemTreeNodeRef scope),\
      (, self, name, scope))                                                                    \
    X(IoDirectory, (, OTF2_IoFileRef self, OTF2_StringRef name, OTF2_SystemTreeNodeRef scope),  \
      (, self, name, scope))                                                                    \
    X(IoHandle, (, OTF2_IoHandleRef self, OTF2_StringRef name, OTF2_IoFileRef file,             \
                 OTF2_IoParadigmRef ioParadigm, OTF2_IoHandleFlag ioHandleFlags,                \
                 OTF2_CommRef comm, OTF2_IoHandleRef parent),                                   \
      (, self, name, file, ioParadigm, ioHandleFlags, comm, parent))                            \
    X(IoPreCreatedHandleState, (, OTF2_IoHandleRef ioHandle, OTF2_IoAccessMode mode,            \
                                OTF2_IoStatusFlag statusFlags),                                 \
      (, ioHandle, mode, statusFlags))                                                          \
    X(CallpathParameter, (, OTF2_CallpathRef callpath, OTF2_ParameterRef parameter,             \
                          OTF2_Type type, OTF2_AttributeValue value),                           \
      (, callpath, parameter, type, value))                                                     \
    X(InterComm, (, OTF2_CommRef self, OTF2_StringRef name, OTF2_GroupRef groupA,               \
                  OTF2_GroupRef groupB, OTF2_CommRef commonCommunicator, OTF2_CommFlag flags),  \
      (, self, name, groupA, groupB, commonCommunicator, flags))

/* Global definitions only (ClockProperties and Location are handled by hand). */
#define GLOBAL_DEFINITION_RECORDS                                                               \
    X(Paradigm, (, OTF2_Paradigm paradigm, OTF2_StringRef name,                                 \
                 OTF2_ParadigmClass paradigmClass),                                             \
      (, paradigm, name, paradigmClass))                                                        \
    X(ParadigmProperty, (, OTF2_Paradigm paradigm, OTF2_ParadigmProperty property,              \
                         OTF2_Type type, OTF2_AttributeValue value),                            \
      (, paradigm, property, type, value))                                                      \
    X(IoParadigm, (, OTF2_IoParadigmRef self, OTF2_StringRef identification,                    \
                   OTF2_StringRef name, OTF2_IoParadigmClass ioParadigmClass,                   \
                   OTF2_IoParadigmFlag ioParadigmFlags, uint8_t numberOfProperties,             \
                   const OTF2_IoParadigmProperty* properties, const OTF2_Type* types,           \
                   const OTF2_AttributeValue* values),                                          \
      (, self, identification, name, ioParadigmClass, ioParadigmFlags, numberOfProperties,      \
       properties, types, values))

/* Local definitions only (MappingTable and ClockOffset are consumed by the reader). */
#define LOCAL_DEFINITION_RECORDS                                                                \
    X(Location, (, OTF2_LocationRef self, OTF2_StringRef name, OTF2_LocationType locationType,  \
                 uint64_t numberOfEvents, OTF2_LocationGroupRef locationGroup),                 \
      (, self, name, locationType, numberOfEvents, locationGroup))


/* The state of one run. */
struct copy
{
    OTF2_Reader*          reader;
    OTF2_Archive*         archive;     /* NULL with --read-only */
    OTF2_GlobalDefWriter* global_defs; /* while the global definitions are written */

    uint64_t          nlocations;      /* Location definitions, in file order */
    uint64_t          capacity;
    OTF2_LocationRef* locations;
    uint64_t*         events_written;  /* per location, same order */

    OTF2_TimeStamp first, last;        /* earliest and latest event time */
    uint64_t       events, unknown;

    bool every_local_def;              /* a local definition file for every location */

    OTF2_ErrorCode error;              /* first error returned by a writer */
    const char*    error_in;
};

/* The state of one location while its definitions and events are copied. */
struct location
{
    struct copy*     c;
    OTF2_LocationRef id;
    OTF2_EvtWriter*  events;           /* NULL with --read-only */
    OTF2_DefWriter*  defs;             /* created for the first copied record */
    uint64_t         count;
};

static void
report( const char* what, OTF2_ErrorCode e )
{
    fprintf( stderr, "otf2copy: %s: %s: %s\n", what,
             OTF2_Error_GetName( e ), OTF2_Error_GetDescription( e ) );
}

/* wrote keeps the first writer error for the caller of the reader. */
static OTF2_CallbackCode
wrote( struct copy* c, OTF2_ErrorCode e, const char* record )
{
    if ( e == OTF2_SUCCESS )
    {
        return OTF2_CALLBACK_SUCCESS;
    }
    if ( c->error == OTF2_SUCCESS )
    {
        c->error    = e;
        c->error_in = record;
    }
    return OTF2_CALLBACK_ERROR;
}

/* reader_failed reports a failed read, naming the writer error behind it. */
static int
reader_failed( struct copy* c, const char* what, OTF2_ErrorCode e )
{
    if ( c->error != OTF2_SUCCESS )
    {
        fprintf( stderr, "otf2copy: %s: writing a %s record failed\n", what, c->error_in );
        report( what, c->error );
    }
    else
    {
        report( what, e );
    }
    return 1;
}


/* ---- events ---- */

static inline void
saw_event( struct location* l, OTF2_TimeStamp time )
{
    l->count++;
    if ( time < l->c->first )
    {
        l->c->first = time;
    }
    if ( time > l->c->last )
    {
        l->c->last = time;
    }
}

#define X( name, params, args )                                                               \
    static OTF2_CallbackCode                                                                  \
    event_##name( OTF2_LocationRef location, OTF2_TimeStamp time, uint64_t position,          \
                  void* data, OTF2_AttributeList* attributes UNPAREN params )                 \
    {                                                                                         \
        struct location* l = data;                                                            \
        ( void )location;                                                                     \
        ( void )position;                                                                     \
        saw_event( l, time );                                                                 \
        if ( l->events == NULL )                                                              \
        {                                                                                     \
            return OTF2_CALLBACK_SUCCESS;                                                     \
        }                                                                                     \
        return wrote( l->c, OTF2_EvtWriter_##name( l->events, attributes, time UNPAREN args ), \
                      #name );                                                                \
    }
EVENT_RECORDS
#undef X

static OTF2_CallbackCode
event_unknown( OTF2_LocationRef location, OTF2_TimeStamp time, uint64_t position,
               void* data, OTF2_AttributeList* attributes )
{
    struct location* l = data;
    ( void )attributes;
    if ( l->c->unknown++ == 0 )
    {
        fprintf( stderr, "otf2copy: location %" PRIu64 ": event %" PRIu64 " at time %" PRIu64
                 " has a record type this library does not know; it cannot be copied\n",
                 location, position, time );
    }
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_EvtReaderCallbacks*
event_callbacks( void )
{
    OTF2_EvtReaderCallbacks* cb = OTF2_EvtReaderCallbacks_New();
    if ( cb == NULL )
    {
        return NULL;
    }
    OTF2_EvtReaderCallbacks_SetUnknownCallback( cb, event_unknown );
#define X( name, params, args ) OTF2_EvtReaderCallbacks_Set##name##Callback( cb, event_##name );
    EVENT_RECORDS
#undef X
    return cb;
}


/* ---- global definitions ---- */

/* First pass: the locations. */

static OTF2_CallbackCode
scan_location( void* data, OTF2_LocationRef self, OTF2_StringRef name,
               OTF2_LocationType type, uint64_t events, OTF2_LocationGroupRef group )
{
    struct copy* c = data;
    ( void )name;
    ( void )type;
    ( void )events;
    ( void )group;
    if ( c->nlocations == c->capacity )
    {
        uint64_t          n    = c->capacity ? 2 * c->capacity : 64;
        OTF2_LocationRef* locs = realloc( c->locations, n * sizeof( *locs ) );
        if ( locs == NULL )
        {
            return OTF2_CALLBACK_ERROR;
        }
        c->locations = locs;
        c->capacity  = n;
    }
    c->locations[ c->nlocations++ ] = self;
    return OTF2_CALLBACK_SUCCESS;
}

static int
scan_global_definitions( struct copy* c )
{
    OTF2_GlobalDefReader* r = OTF2_Reader_GetGlobalDefReader( c->reader );
    if ( r == NULL )
    {
        fprintf( stderr, "otf2copy: cannot open the global definitions\n" );
        return 1;
    }
    OTF2_GlobalDefReaderCallbacks* cb = OTF2_GlobalDefReaderCallbacks_New();
    OTF2_GlobalDefReaderCallbacks_SetLocationCallback( cb, scan_location );
    OTF2_ErrorCode e = OTF2_Reader_RegisterGlobalDefCallbacks( c->reader, r, cb, c );
    OTF2_GlobalDefReaderCallbacks_Delete( cb );
    uint64_t n = 0;
    if ( e == OTF2_SUCCESS )
    {
        e = OTF2_Reader_ReadAllGlobalDefinitions( c->reader, r, &n );
    }
    OTF2_Reader_CloseGlobalDefReader( c->reader, r );
    if ( e != OTF2_SUCCESS )
    {
        report( "reading the global definitions", e );
        return 1;
    }
    c->events_written = calloc( c->nlocations ? c->nlocations : 1, sizeof( uint64_t ) );
    return c->events_written == NULL;
}

/* Second pass: every record to the global definition writer. */

#define X( name, params, args )                                                             \
    static OTF2_CallbackCode                                                                \
    global_##name( void* data UNPAREN params )                                              \
    {                                                                                       \
        struct copy* c = data;                                                              \
        return wrote( c, OTF2_GlobalDefWriter_Write##name( c->global_defs UNPAREN args ),   \
                      #name );                                                              \
    }
DEFINITION_RECORDS
GLOBAL_DEFINITION_RECORDS
#undef X

/* The clock properties of the events as written: their times have the clock
 * offsets applied, so they may begin before the input's globalOffset. */
static OTF2_CallbackCode
global_ClockProperties( void* data, uint64_t resolution, uint64_t offset, uint64_t length,
                        uint64_t realtime )
{
    struct copy* c = data;
    if ( c->events > 0 )
    {
        if ( realtime != OTF2_UNDEFINED_TIMESTAMP && resolution > 0 )
        {
            /* realtimeTimestamp is the wall-clock time (ns) of globalOffset. */
            double shift = ( ( double )c->first - ( double )offset ) * 1e9 / ( double )resolution;
            realtime = ( uint64_t )( ( double )realtime + shift );
        }
        offset = c->first;
        length = c->last - c->first;
    }
    return wrote( c, OTF2_GlobalDefWriter_WriteClockProperties( c->global_defs, resolution,
                                                                offset, length, realtime ),
                  "ClockProperties" );
}

static OTF2_CallbackCode
global_Location( void* data, OTF2_LocationRef self, OTF2_StringRef name,
                 OTF2_LocationType type, uint64_t events, OTF2_LocationGroupRef group )
{
    struct copy* c = data;
    for ( uint64_t i = 0; i < c->nlocations; i++ )
    {
        if ( c->locations[ i ] == self )
        {
            events = c->events_written[ i ];
            break;
        }
    }
    return wrote( c, OTF2_GlobalDefWriter_WriteLocation( c->global_defs, self, name, type,
                                                         events, group ),
                  "Location" );
}

static int
copy_global_definitions( struct copy* c )
{
    c->global_defs = OTF2_Archive_GetGlobalDefWriter( c->archive );
    OTF2_GlobalDefReader* r = OTF2_Reader_GetGlobalDefReader( c->reader );
    if ( c->global_defs == NULL || r == NULL )
    {
        fprintf( stderr, "otf2copy: cannot open the global definitions a second time\n" );
        return 1;
    }
    OTF2_GlobalDefReaderCallbacks* cb = OTF2_GlobalDefReaderCallbacks_New();
#define X( name, params, args ) \
    OTF2_GlobalDefReaderCallbacks_Set##name##Callback( cb, global_##name );
    DEFINITION_RECORDS
    GLOBAL_DEFINITION_RECORDS
    X( ClockProperties, , )
    X( Location, , )
#undef X
    OTF2_ErrorCode e = OTF2_Reader_RegisterGlobalDefCallbacks( c->reader, r, cb, c );
    OTF2_GlobalDefReaderCallbacks_Delete( cb );
    uint64_t n = 0;
    if ( e == OTF2_SUCCESS )
    {
        e = OTF2_Reader_ReadAllGlobalDefinitions( c->reader, r, &n );
    }
    OTF2_Reader_CloseGlobalDefReader( c->reader, r );
    if ( e != OTF2_SUCCESS )
    {
        return reader_failed( c, "copying the global definitions", e );
    }
    return 0;
}


/* ---- local definitions ---- */

static OTF2_ErrorCode
local_writer( struct location* l )
{
    if ( l->defs == NULL )
    {
        l->defs = OTF2_Archive_GetDefWriter( l->c->archive, l->id );
        if ( l->defs == NULL )
        {
            return OTF2_ERROR_MEM_ALLOC_FAILED;
        }
    }
    return OTF2_SUCCESS;
}

#define X( name, params, args )                                                             \
    static OTF2_CallbackCode                                                                \
    local_##name( void* data UNPAREN params )                                               \
    {                                                                                       \
        struct location* l = data;                                                          \
        if ( l->c->archive == NULL )                                                        \
        {                                                                                   \
            return OTF2_CALLBACK_SUCCESS;                                                   \
        }                                                                                   \
        OTF2_ErrorCode e = local_writer( l );                                               \
        if ( e == OTF2_SUCCESS )                                                            \
        {                                                                                   \
            e = OTF2_DefWriter_Write##name( l->defs UNPAREN args );                         \
        }                                                                                   \
        return wrote( l->c, e, #name );                                                     \
    }
DEFINITION_RECORDS
LOCAL_DEFINITION_RECORDS
#undef X

static OTF2_DefReaderCallbacks*
local_callbacks( void )
{
    OTF2_DefReaderCallbacks* cb = OTF2_DefReaderCallbacks_New();
    if ( cb == NULL )
    {
        return NULL;
    }
#define X( name, params, args ) OTF2_DefReaderCallbacks_Set##name##Callback( cb, local_##name );
    DEFINITION_RECORDS
    LOCAL_DEFINITION_RECORDS
#undef X
    return cb;
}


/* ---- one location ---- */

static int
copy_location( struct copy* c, uint64_t index, const OTF2_DefReaderCallbacks* defs,
               const OTF2_EvtReaderCallbacks* events )
{
    struct location l = { .c = c, .id = c->locations[ index ] };
    char            what[ 64 ];
    OTF2_ErrorCode  e;
    uint64_t        n = 0;

    /* Local definitions first: the reader keeps the mapping tables and clock
     * offsets for the location's event reader. */
    snprintf( what, sizeof( what ), "location %" PRIu64 ": local definitions", l.id );
    OTF2_DefReader* dr = defs != NULL ? OTF2_Reader_GetDefReader( c->reader, l.id ) : NULL;
    if ( dr != NULL )
    {
        e = OTF2_Reader_RegisterDefCallbacks( c->reader, dr, defs, &l );
        if ( e == OTF2_SUCCESS )
        {
            e = OTF2_Reader_ReadAllLocalDefinitions( c->reader, dr, &n );
        }
        OTF2_Reader_CloseDefReader( c->reader, dr );
        if ( e != OTF2_SUCCESS )
        {
            return reader_failed( c, what, e );
        }
    }

    snprintf( what, sizeof( what ), "location %" PRIu64 ": events", l.id );
    OTF2_EvtReader* er = OTF2_Reader_GetEvtReader( c->reader, l.id );
    if ( er == NULL )
    {
        fprintf( stderr, "otf2copy: %s: cannot open the event reader\n", what );
        return 1;
    }
    if ( c->archive != NULL )
    {
        l.events = OTF2_Archive_GetEvtWriter( c->archive, l.id );
        if ( l.events == NULL )
        {
            fprintf( stderr, "otf2copy: %s: cannot open the event writer\n", what );
            return 1;
        }
    }
    e = OTF2_Reader_RegisterEvtCallbacks( c->reader, er, events, &l );
    if ( e == OTF2_SUCCESS )
    {
        e = OTF2_Reader_ReadAllLocalEvents( c->reader, er, &n );
    }
    OTF2_Reader_CloseEvtReader( c->reader, er );
    if ( e != OTF2_SUCCESS )
    {
        return reader_failed( c, what, e );
    }
    c->events                 += l.count;
    c->events_written[ index ] = l.count;

    if ( l.events == NULL )
    {
        return 0;
    }
    if ( c->every_local_def )
    {
        e = local_writer( &l );
    }
    if ( e == OTF2_SUCCESS )
    {
        e = OTF2_Archive_CloseEvtWriter( c->archive, l.events );
    }
    if ( e == OTF2_SUCCESS && l.defs != NULL )
    {
        e = OTF2_Archive_CloseDefWriter( c->archive, l.defs );
    }
    if ( e != OTF2_SUCCESS )
    {
        report( what, e );
        return 1;
    }
    return 0;
}

static int
copy_locations( struct copy* c )
{
    OTF2_ErrorCode e;
    for ( uint64_t i = 0; i < c->nlocations; i++ )
    {
        if ( ( e = OTF2_Reader_SelectLocation( c->reader, c->locations[ i ] ) ) != OTF2_SUCCESS )
        {
            report( "selecting the locations", e );
            return 1;
        }
    }
    /* Local definition files are optional: without them there is nothing to read. */
    bool have_defs = OTF2_Reader_OpenDefFiles( c->reader ) == OTF2_SUCCESS;
    if ( ( e = OTF2_Reader_OpenEvtFiles( c->reader ) ) != OTF2_SUCCESS )
    {
        report( "opening the event files", e );
        return 1;
    }
    if ( c->archive != NULL )
    {
        if ( ( e = OTF2_Archive_OpenEvtFiles( c->archive ) ) != OTF2_SUCCESS ||
             ( e = OTF2_Archive_OpenDefFiles( c->archive ) ) != OTF2_SUCCESS )
        {
            report( "opening the output's event and definition files", e );
            return 1;
        }
    }

    OTF2_DefReaderCallbacks* defs   = local_callbacks();
    OTF2_EvtReaderCallbacks* events = event_callbacks();
    int                      failed = defs == NULL || events == NULL;
    for ( uint64_t i = 0; i < c->nlocations && !failed; i++ )
    {
        failed = copy_location( c, i, have_defs ? defs : NULL, events );
    }
    OTF2_DefReaderCallbacks_Delete( defs );
    OTF2_EvtReaderCallbacks_Delete( events );
    if ( failed )
    {
        return 1;
    }
    if ( c->unknown > 0 )
    {
        fprintf( stderr, "otf2copy: %" PRIu64 " event records of unknown types\n", c->unknown );
        return 1;
    }

    if ( have_defs )
    {
        OTF2_Reader_CloseDefFiles( c->reader );
    }
    OTF2_Reader_CloseEvtFiles( c->reader );
    if ( c->archive != NULL )
    {
        if ( ( e = OTF2_Archive_CloseEvtFiles( c->archive ) ) != OTF2_SUCCESS ||
             ( e = OTF2_Archive_CloseDefFiles( c->archive ) ) != OTF2_SUCCESS )
        {
            report( "closing the output's event and definition files", e );
            return 1;
        }
    }
    return 0;
}


/* ---- the archives ---- */

/* anchor_path returns INPUT if it is a file, else INPUT/traces.otf2, else the
 * one *.otf2 file in the directory INPUT (malloc'ed), or NULL. */
static char*
anchor_path( const char* input )
{
    struct stat st;
    if ( stat( input, &st ) != 0 )
    {
        fprintf( stderr, "otf2copy: %s: %s\n", input, strerror( errno ) );
        return NULL;
    }
    if ( !S_ISDIR( st.st_mode ) )
    {
        return strdup( input );
    }
    DIR* d = opendir( input );
    if ( d == NULL )
    {
        fprintf( stderr, "otf2copy: %s: %s\n", input, strerror( errno ) );
        return NULL;
    }
    char*          found  = NULL; /* the first *.otf2, or traces.otf2 */
    int            n      = 0;    /* how many *.otf2 */
    bool           traces = false;
    struct dirent* e;
    while ( ( e = readdir( d ) ) != NULL && !traces )
    {
        size_t len = strlen( e->d_name );
        if ( len <= 5 || strcmp( e->d_name + len - 5, ".otf2" ) != 0 )
        {
            continue;
        }
        n++;
        traces = strcmp( e->d_name, "traces.otf2" ) == 0;
        if ( found == NULL || traces )
        {
            free( found );
            found = malloc( strlen( input ) + len + 2 );
            if ( found == NULL )
            {
                break;
            }
            sprintf( found, "%s/%s", input, e->d_name );
        }
    }
    closedir( d );
    if ( found != NULL && !traces && n > 1 )
    {
        fprintf( stderr, "otf2copy: %s: more than one .otf2 anchor file and none is traces.otf2\n",
                 input );
        free( found );
        return NULL;
    }
    if ( found == NULL )
    {
        fprintf( stderr, "otf2copy: %s: no .otf2 anchor file in this directory\n", input );
    }
    return found;
}

/* output_ok refuses an output directory that exists and is not empty. */
static bool
output_ok( const char* dir )
{
    DIR* d = opendir( dir );
    if ( d == NULL )
    {
        if ( errno == ENOENT )
        {
            return true;
        }
        fprintf( stderr, "otf2copy: %s: %s\n", dir, strerror( errno ) );
        return false;
    }
    struct dirent* e;
    bool           empty = true;
    while ( empty && ( e = readdir( d ) ) != NULL )
    {
        empty = strcmp( e->d_name, "." ) == 0 || strcmp( e->d_name, ".." ) == 0;
    }
    closedir( d );
    if ( !empty )
    {
        fprintf( stderr, "otf2copy: %s: the output directory is not empty\n", dir );
    }
    return empty;
}

static OTF2_FlushType
pre_flush( void* data, OTF2_FileType type, OTF2_LocationRef location, void* writer, bool final )
{
    ( void )data;
    ( void )type;
    ( void )location;
    ( void )writer;
    ( void )final;
    return OTF2_FLUSH;
}

static const OTF2_FlushCallbacks flush_callbacks = {
    .otf2_pre_flush  = pre_flush,
    .otf2_post_flush = NULL
};

/* copy_anchor copies the creator, description, machine name and properties. */
static int
copy_anchor( struct copy* c )
{
    OTF2_ErrorCode ( *get[ 3 ] )( OTF2_Reader*, char** ) = {
        OTF2_Reader_GetCreator, OTF2_Reader_GetDescription, OTF2_Reader_GetMachineName
    };
    OTF2_ErrorCode ( *set[ 3 ] )( OTF2_Archive*, const char* ) = {
        OTF2_Archive_SetCreator, OTF2_Archive_SetDescription, OTF2_Archive_SetMachineName
    };
    OTF2_ErrorCode e = OTF2_SUCCESS;
    for ( int i = 0; i < 3 && e == OTF2_SUCCESS; i++ )
    {
        char* s = NULL;
        if ( get[ i ]( c->reader, &s ) == OTF2_SUCCESS && s != NULL )
        {
            e = set[ i ]( c->archive, s );
        }
        free( s );
    }
    uint32_t n     = 0;
    char**   names = NULL;
    if ( e == OTF2_SUCCESS )
    {
        e = OTF2_Reader_GetPropertyNames( c->reader, &n, &names );
    }
    for ( uint32_t i = 0; e == OTF2_SUCCESS && i < n; i++ )
    {
        char* value = NULL;
        e = OTF2_Reader_GetProperty( c->reader, names[ i ], &value );
        if ( e == OTF2_SUCCESS )
        {
            e = OTF2_Archive_SetProperty( c->archive, names[ i ], value, true );
        }
        free( value );
    }
    free( names );
    if ( e != OTF2_SUCCESS )
    {
        report( "copying the anchor's creator, description and properties", e );
        return 1;
    }
    return 0;
}

static int
open_output( struct copy* c, const char* dir )
{
    c->archive = OTF2_Archive_Open( dir, "traces", OTF2_FILEMODE_WRITE,
                                    OTF2_CHUNK_SIZE_EVENTS_DEFAULT,
                                    OTF2_CHUNK_SIZE_DEFINITIONS_DEFAULT,
                                    OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE );
    if ( c->archive == NULL )
    {
        fprintf( stderr, "otf2copy: %s: cannot create the archive\n", dir );
        return 1;
    }
    OTF2_ErrorCode e = OTF2_Archive_SetFlushCallbacks( c->archive, &flush_callbacks, NULL );
    if ( e == OTF2_SUCCESS )
    {
        e = OTF2_Archive_SetSerialCollectiveCallbacks( c->archive );
    }
    if ( e != OTF2_SUCCESS )
    {
        report( "setting up the output archive", e );
        return 1;
    }
    return copy_anchor( c );
}

static double
seconds( void )
{
    struct timespec t;
    clock_gettime( CLOCK_MONOTONIC, &t );
    return ( double )t.tv_sec + 1e-9 * ( double )t.tv_nsec;
}

static int
usage( void )
{
    fprintf( stderr, "usage: otf2copy [--quiet] [--no-local-defs] INPUT OUTDIR\n"
             "       otf2copy [--quiet] --read-only INPUT\n"
             "INPUT: an OTF2 anchor file or the directory holding it;\n"
             "OUTDIR: must not exist or be empty\n" );
    return 2;
}

int
main( int argc, char** argv )
{
    bool        read_only = false, quiet = false, every_local_def = true;
    const char* args[ 2 ];
    int         nargs = 0;
    for ( int i = 1; i < argc; i++ )
    {
        if ( strcmp( argv[ i ], "--read-only" ) == 0 )
        {
            read_only = true;
        }
        else if ( strcmp( argv[ i ], "--no-local-defs" ) == 0 )
        {
            every_local_def = false;
        }
        else if ( strcmp( argv[ i ], "--quiet" ) == 0 || strcmp( argv[ i ], "-q" ) == 0 )
        {
            quiet = true;
        }
        else if ( argv[ i ][ 0 ] == '-' || nargs == 2 )
        {
            return usage();
        }
        else
        {
            args[ nargs++ ] = argv[ i ];
        }
    }
    if ( nargs != ( read_only ? 1 : 2 ) )
    {
        return usage();
    }

    double      start = seconds();
    struct copy c     = { .first = UINT64_MAX, .last = 0, .every_local_def = every_local_def };
    int         rc    = 1;
    char*       anchor = anchor_path( args[ 0 ] );
    if ( anchor == NULL || ( !read_only && !output_ok( args[ 1 ] ) ) )
    {
        goto out;
    }
    c.reader = OTF2_Reader_Open( anchor );
    if ( c.reader == NULL )
    {
        fprintf( stderr, "otf2copy: %s: cannot open the archive\n", anchor );
        goto out;
    }
    OTF2_ErrorCode e = OTF2_Reader_SetSerialCollectiveCallbacks( c.reader );
    if ( e != OTF2_SUCCESS )
    {
        report( anchor, e );
        goto out;
    }
    if ( scan_global_definitions( &c ) != 0 ||
         ( !read_only && open_output( &c, args[ 1 ] ) != 0 ) ||
         copy_locations( &c ) != 0 ||
         ( !read_only && copy_global_definitions( &c ) != 0 ) )
    {
        goto out;
    }
    if ( c.archive != NULL )
    {
        e       = OTF2_Archive_Close( c.archive );
        c.archive = NULL;
        if ( e != OTF2_SUCCESS )
        {
            report( "closing the output archive", e );
            goto out;
        }
    }
    rc = 0;
    if ( !quiet )
    {
        double s = seconds() - start;
        fprintf( stderr, "otf2copy: %s %" PRIu64 " events of %" PRIu64 " locations in %.3f s\n",
                 read_only ? "read" : "copied", c.events, c.nlocations, s );
    }

out:
    if ( c.archive != NULL )
    {
        OTF2_Archive_Close( c.archive );
    }
    if ( c.reader != NULL )
    {
        OTF2_Reader_Close( c.reader );
    }
    free( anchor );
    free( c.locations );
    free( c.events_written );
    return rc;
}
