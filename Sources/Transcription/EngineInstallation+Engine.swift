import HelperProcesses

extension EngineInstallation {
    /// The transcription engine's installer started in the background for
    /// `engine` (its folder), `multilingual` to add the multilingual model.
    public static func start(engine: Engine, multilingual: Bool) throws(TranscriptionError) -> EngineInstallation {
        do {
            return try EngineInstallation(arguments: engine.installerArguments(multilingual: multilingual))
        } catch {
            throw .notInstallable(error.reason)
        }
    }
}
